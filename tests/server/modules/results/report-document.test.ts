import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderReportPdf, reportBlocks, type ReportPdfInput } from '../../../../src-server/modules/results/report-document';
import { checkPdf } from '../../../../src-server/modules/attachments/public';
import { pdfText } from '../../dev-pacs/pdf-text';

// The demo PACS's report PDF (src-server/modules/results/report-document.ts): passive (the check the results
// delivery runs), holding the report's text, the same bytes for the same report.

const INPUT: ReportPdfInput = {
  providerName: 'Harbour & Range Radiology',
  patientName: 'Liam Example',
  dateOfBirth: '1991-03-14',
  examName: 'MRI knee',
  clinicName: 'Parramatta',
  examDate: new Date('2026-02-24T23:30:00Z'),
  timeZone: 'Australia/Sydney',
  accessionNumber: 'HRR-DEMO-MR-260101',
  referrerName: 'Dr Daniel Okafor',
  radiologistName: 'Dr Priya Raman, FRANZCR',
  reportText: [
    'MRI LEFT KNEE',
    'CLINICAL HISTORY:\nTwisting injury six weeks ago. Query meniscal tear.',
    'TECHNIQUE: Sagittal T1 and proton density fat-saturated sequences.',
    'FINDINGS:\nHorizontal oblique tear of the posterior horn of the medial meniscus — no displaced fragment.',
    'IMPRESSION:\n1. Medial meniscal tear.\n2. Small joint effusion.',
  ].join('\n\n'),
};

const dir = mkdtempSync(join(tmpdir(), 'demo-pacs-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = 0;
async function checked(pdf: Buffer): Promise<Awaited<ReturnType<typeof checkPdf>>> {
  written += 1;
  const path = join(dir, `${written}.pdf`);
  writeFileSync(path, pdf);
  return checkPdf(path);
}

describe('renderReportPdf', () => {
  it('makes a PDF that passes the delivery check (no scripts, actions or embedded files)', async () => {
    const pdf = await renderReportPdf(INPUT);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await checked(pdf)).active).toBeNull();
  });

  it('holds the letterhead, the patient and exam details and every section of the report', async () => {
    const text = pdfText(await renderReportPdf(INPUT));
    for (const expected of [
      'Harbour & Range Radiology',
      'Radiology report',
      'Liam Example',
      '14 March 1991',
      // 23:30 UTC is the next morning in Sydney.
      '25 February 2026',
      'HRR-DEMO-MR-260101',
      'Dr Daniel Okafor',
      'CLINICAL HISTORY',
      'TECHNIQUE',
      'Sagittal T1 and proton density fat-saturated sequences.',
      'FINDINGS',
      'Horizontal oblique tear of the posterior horn of the medial meniscus',
      'IMPRESSION',
      '2. Small joint effusion.',
      'Electronically signed by Dr Priya Raman, FRANZCR',
    ])
      expect(text).toContain(expected);
  });

  it('gives the same bytes for the same report, and different bytes for another', async () => {
    const [first, second, other] = await Promise.all([
      renderReportPdf(INPUT),
      renderReportPdf(INPUT),
      renderReportPdf({ ...INPUT, accessionNumber: 'HRR-DEMO-MR-260102' }),
    ]);
    expect(first.equals(second)).toBe(true);
    expect(first.equals(other)).toBe(false);
  });

  it('runs a long report over several pages, each with its footer', async () => {
    const long = Array.from({ length: 40 }, (_, index) => `FINDINGS ${index}:\n${'The menisci and ligaments are intact. '.repeat(8)}`).join(
      '\n\n',
    );
    const pdf = await renderReportPdf({ ...INPUT, reportText: long });
    const text = pdfText(pdf);
    const pages = /page 1 of (\d+)/.exec(text)?.[1];
    expect(Number(pages)).toBeGreaterThan(1);
    expect(text).toContain(`page ${pages} of ${pages}`);
    expect((await checked(pdf)).active).toBeNull();
  });

  it('writes characters the standard fonts lack as "?" instead of dropping the line', async () => {
    const text = pdfText(await renderReportPdf({ ...INPUT, patientName: 'Лиам Example' }));
    expect(text).toContain('???? Example');
  });
});

describe('reportBlocks', () => {
  it('reads headings on their own line or in front of the first paragraph, and keeps other paragraphs', () => {
    expect(reportBlocks('MRI KNEE\n\nFINDINGS:\nA.\nB.\n\nIMPRESSION: Normal.\n\nA closing note.')).toEqual([
      { kind: 'heading', text: 'MRI KNEE' },
      { kind: 'heading', text: 'FINDINGS' },
      { kind: 'paragraph', text: 'A.\nB.' },
      { kind: 'heading', text: 'IMPRESSION' },
      { kind: 'paragraph', text: 'Normal.' },
      { kind: 'paragraph', text: 'A closing note.' },
    ]);
  });
});
