import PDFDocument from 'pdfkit';

/**
 * A radiology report rendered as a PDF from its text: the demo provider's reports (the stand-in for
 * what a RIS renders when a report is finalised), and a report the RIS sent as text alone (an
 * HL7 ORU^R01 without a PDF inside). pdfkit with its built-in Helvetica only: no fonts to ship, and nothing active in the
 * file (no scripts, actions, links, forms or attachments), so it passes the attachments' checkPdf
 * like any report the results delivery accepts.
 *
 * The file is deterministic for the same input (fixed creation date, no random ids), so two
 * servers seeding the same demo report at once deliver the same bytes (delivery: `unchanged`).
 */

export interface ReportPdfInput {
  providerName: string;
  patientName: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  examName: string;
  clinicName: string;
  /** When the exam took place. */
  examDate: Date;
  /** The clinic's zone, for the exam date on the report. Default Australia/Sydney. */
  timeZone?: string;
  accessionNumber: string;
  referrerName: string;
  /** Paragraphs separated by blank lines; a line such as "FINDINGS:" is a section heading. */
  reportText: string;
  /** Who signed the report; default a line without a name. */
  radiologistName?: string;
}

const PAGE_MARGIN = 56;
const ACCENT = '#1f4e79';
const MUTED = '#555555';
/** "CLINICAL HISTORY:" or "IMPRESSION" alone on a line. */
const HEADING = /^([A-Z][A-Z /&-]{2,40}):?\s*$/;
/** "FINDINGS: text" on one line: heading and its first paragraph. */
const INLINE_HEADING = /^([A-Z][A-Z /&-]{2,40}):\s+(\S.*)$/;

function formatDate(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(date);
}

/** YYYY-MM-DD as "14 March 1991" (a date, not an instant: no zone). */
function formatBirthDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : formatDate(date, 'UTC');
}

/** The standard fonts speak WinAnsi: anything else becomes "?" rather than a missing glyph. */
function printable(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[^\n\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2022\u2026]/g, '?');
}

type Block = { kind: 'heading'; text: string } | { kind: 'paragraph'; text: string };

/** The report text as headings and paragraphs (single line breaks inside a paragraph are kept). */
export function reportBlocks(reportText: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of printable(reportText).split(/\n\s*\n/)) {
    const lines = chunk.split('\n').map((line) => line.trimEnd());
    const first = lines[0]?.trim() ?? '';
    if (first === '') continue;
    const heading = HEADING.exec(first);
    const inline = INLINE_HEADING.exec(first);
    if (heading?.[1] !== undefined) {
      blocks.push({ kind: 'heading', text: heading[1].trim() });
      const rest = lines.slice(1).join('\n').trim();
      if (rest !== '') blocks.push({ kind: 'paragraph', text: rest });
    } else if (inline?.[1] !== undefined && inline[2] !== undefined) {
      blocks.push({ kind: 'heading', text: inline[1].trim() });
      blocks.push({ kind: 'paragraph', text: [inline[2], ...lines.slice(1)].join('\n').trim() });
    } else {
      blocks.push({ kind: 'paragraph', text: lines.join('\n').trim() });
    }
  }
  return blocks;
}

type Doc = InstanceType<typeof PDFDocument>;

/** The provider's name and clinic over a rule, then the document's title. */
function drawLetterhead(doc: Doc, input: ReportPdfInput, width: number): void {
  // Letterhead.
  doc.font('Helvetica-Bold').fontSize(18).fillColor(ACCENT).text(printable(input.providerName));
  doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(printable(input.clinicName));
  doc.moveDown(0.6);
  const ruleY = doc.y;
  doc
    .moveTo(PAGE_MARGIN, ruleY)
    .lineTo(PAGE_MARGIN + width, ruleY)
    .lineWidth(1.5)
    .strokeColor(ACCENT)
    .stroke();
  doc.moveDown(0.8);
  doc.font('Helvetica-Bold').fontSize(14).fillColor('#000000').text('Radiology report');
  doc.moveDown(0.5);
}

/** Patient and exam details, in two columns. */
function drawDetails(doc: Doc, input: ReportPdfInput, examDay: string, width: number): void {
  // Patient and exam details, two columns.
  const details: [string, string][] = [
    ['Patient', input.patientName],
    ['Date of birth', formatBirthDate(input.dateOfBirth)],
    ['Examination', input.examName],
    ['Exam date', examDay],
    ['Accession number', input.accessionNumber],
    ['Referring doctor', input.referrerName],
  ];
  const labelWidth = 120;
  for (const [label, value] of details) {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(10).fillColor(MUTED).text(label, PAGE_MARGIN, y, { width: labelWidth });
    doc
      .font('Helvetica')
      .fillColor('#000000')
      .text(printable(value), PAGE_MARGIN + labelWidth, y, { width: width - labelWidth });
    doc.moveDown(0.25);
  }
  doc.x = PAGE_MARGIN;
  doc.moveDown(0.8);
}

/** On every page: who the report is about, and the page count. */
function drawFooters(doc: Doc, input: ReportPdfInput, width: number): void {
  // Footer on every page: who it is about and the page count.
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    const bottom = doc.page.height - PAGE_MARGIN / 2 - 10;
    // Writing below the bottom margin would add a page: lift the margin for the footer line.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        printable(`${input.patientName} · ${input.accessionNumber} · page ${index - range.start + 1} of ${range.count}`),
        PAGE_MARGIN,
        bottom,
        { width, align: 'center', lineBreak: false },
      );
    doc.page.margins.bottom = margin;
  }
}

/** Renders the report; resolves with the PDF's bytes. */
export function renderReportPdf(input: ReportPdfInput): Promise<Buffer> {
  const timeZone = input.timeZone ?? 'Australia/Sydney';
  const examDay = formatDate(input.examDate, timeZone);
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    bufferPages: true,
    info: {
      Title: printable(`${input.examName} report, ${input.patientName}`),
      Author: printable(input.providerName),
      Subject: printable(`Accession ${input.accessionNumber}`),
      Creator: printable(input.providerName),
      Producer: 'Radiology patient portal demo PACS',
      CreationDate: input.examDate,
      ModDate: input.examDate,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * PAGE_MARGIN;

  drawLetterhead(doc, input, width);
  drawDetails(doc, input, examDay, width);
  // The report.
  for (const block of reportBlocks(input.reportText)) {
    if (block.kind === 'heading') {
      doc.moveDown(0.4);
      doc.font('Helvetica-Bold').fontSize(11).fillColor(ACCENT).text(block.text, { width });
      doc.moveDown(0.2);
    } else {
      doc.font('Helvetica').fontSize(10.5).fillColor('#000000').text(block.text, { width, align: 'left', lineGap: 2 });
      doc.moveDown(0.5);
    }
  }

  doc.moveDown(1);
  doc
    .font('Helvetica-Oblique')
    .fontSize(10)
    .fillColor(MUTED)
    .text(
      input.radiologistName === undefined
        ? `Electronically signed on ${examDay}.`
        : printable(`Electronically signed by ${input.radiologistName} on ${examDay}.`),
      { width },
    );

  drawFooters(doc, input, width);
  doc.end();
  return done;
}
