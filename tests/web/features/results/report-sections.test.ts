import { describe, expect, it } from 'vitest';
import { parseReport, type ParsedReport } from '../../../../src-web/features/results/report-sections';

/** Section kinds in order, the impression first when there is one. */
const kinds = (report: ParsedReport) => [...(report.impression ? ['IMPRESSION*'] : []), ...report.sections.map((section) => section.kind)];
/** Every word of the input is still somewhere in the output (nothing lost but heading names). */
const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');
const allText = (report: ParsedReport) =>
  [report.impression, ...report.sections].flatMap((section) => section?.paragraphs ?? []).join('\n');

describe('parseReport', () => {
  it('should put the impression first in a classic capitalised report with colons', () => {
    const report = parseReport(
      'MRI LEFT KNEE\n\nCLINICAL HISTORY:\nTwisting injury.\n\nTECHNIQUE:\nSagittal T1.\n\nFINDINGS:\nMeniscal tear.\n\nSmall joint effusion.\n\nIMPRESSION:\n1. Medial meniscal tear.\n2. Small effusion.',
    );
    expect(kinds(report)).toEqual(['IMPRESSION*', 'preamble', 'history', 'technique', 'findings']);
    expect(report.impression?.paragraphs).toEqual(['1. Medial meniscal tear.\n2. Small effusion.']);
    expect(report.sections[0]?.paragraphs).toEqual(['MRI LEFT KNEE']);
    expect(report.sections.find((section) => section.kind === 'findings')?.paragraphs).toEqual(['Meniscal tear.', 'Small joint effusion.']);
  });

  it('should read headings in any case, without colons, and with the text on the same line', () => {
    const report = parseReport('Indication: cough for 3 weeks\nfindings\nClear lungs.\nConclusion - Normal chest radiograph.');
    expect(kinds(report)).toEqual(['IMPRESSION*', 'history', 'findings']);
    expect(report.impression?.paragraphs).toEqual(['Normal chest radiograph.']);
    expect(report.sections[0]?.paragraphs).toEqual(['cough for 3 weeks']);
  });

  it('should take CONCLUSION, OPINION and SUMMARY as the impression', () => {
    for (const name of ['CONCLUSION', 'Opinion', 'summary:', 'IMPRESSIONS:', 'Conclusions']) {
      const report = parseReport(`FINDINGS:\nNormal.\n\n${name}\nNo abnormality.`);
      expect(report.impression?.paragraphs, name).toEqual(['No abnormality.']);
    }
  });

  it('should keep a report without any heading as it is, with no impression', () => {
    const text = 'The lungs are clear.\n\nNo pleural effusion. Heart size normal.';
    const report = parseReport(text);
    expect(report.impression).toBeNull();
    expect(report.sections).toEqual([
      { kind: 'preamble', paragraphs: ['The lungs are clear.', 'No pleural effusion. Heart size normal.'] },
    ]);
  });

  it('should keep findings without an impression section (no impression card)', () => {
    const report = parseReport('ULTRASOUND ABDOMEN\n\nREPORT:\nThe liver is normal in size.\nNo gallstones.');
    expect(kinds(report)).toEqual(['preamble', 'findings']);
    expect(report.sections[1]?.paragraphs).toEqual(['The liver is normal in size.\nNo gallstones.']);
  });

  it('should not take organ labels or spine levels inside the findings for headings', () => {
    const report = parseReport(
      'FINDINGS:\nLiver: normal.\nL4-L5: broad disc bulge.\nReport of the left knee follows.\n\nIMPRESSION: Normal.',
    );
    expect(report.sections[0]?.paragraphs).toEqual(['Liver: normal.\nL4-L5: broad disc bulge.\nReport of the left knee follows.']);
    expect(report.impression?.paragraphs).toEqual(['Normal.']);
  });

  it('should read markdown-like headings and Windows line ends', () => {
    const report = parseReport(
      '**Clinical history:**\r\nHeadache.\r\n\r\n## Findings\r\nNo haemorrhage.\r\n\r\n**Impression:** Normal CT brain.',
    );
    expect(kinds(report)).toEqual(['IMPRESSION*', 'history', 'findings']);
    expect(report.impression?.paragraphs).toEqual(['Normal CT brain.']);
  });

  it('should keep comparison, recommendation, comment and addendum sections in their order', () => {
    const report = parseReport(
      'COMPARISON: CT 2024.\nFINDINGS:\nStable nodule.\nIMPRESSION:\nStable.\nRECOMMENDATIONS:\nFollow-up CT in 12 months.\nComment: discussed with the GP.\nADDENDUM:\nReviewed again.',
    );
    expect(kinds(report)).toEqual(['IMPRESSION*', 'comparison', 'findings', 'recommendation', 'comment', 'addendum']);
  });

  it('should show the first impression-like section first and keep a second one in place', () => {
    const report = parseReport('FINDINGS:\nA.\nIMPRESSION:\nB.\nSUMMARY:\nC.');
    expect(report.impression?.paragraphs).toEqual(['B.']);
    expect(kinds(report)).toEqual(['IMPRESSION*', 'findings', 'impression']);
  });

  it('should put an impression written before the findings first as well', () => {
    const report = parseReport('X-RAY CHEST\nImpression: No acute cardiopulmonary process.\n\nFindings: The lungs are clear.');
    expect(kinds(report)).toEqual(['IMPRESSION*', 'preamble', 'findings']);
    expect(report.sections[0]?.paragraphs).toEqual(['X-RAY CHEST']);
  });

  it('should drop a heading with nothing under it but lose no text', () => {
    const text = 'CLINICAL HISTORY:\n\nTECHNIQUE:\nAxial CT.\n\nFINDINGS:\nNormal.\n\nIMPRESSION:\nNormal study.';
    const report = parseReport(text);
    expect(kinds(report)).toEqual(['IMPRESSION*', 'technique', 'findings']);
  });

  it('should keep every word of a long real-looking report except the heading names', () => {
    const text =
      'CT ABDOMEN AND PELVIS WITH CONTRAST\n\nReason for examination: right iliac fossa pain.\n\nProcedure: portal venous phase.\n\nPrior studies: none.\n\nResults:\nAppendix 9 mm with periappendiceal fat stranding.\nNo free gas.\n\nOpinion: acute appendicitis.';
    const report = parseReport(text);
    expect(kinds(report)).toEqual(['IMPRESSION*', 'preamble', 'history', 'technique', 'comparison', 'findings']);
    const kept = words(allText(report));
    const headingWords = ['Reason', 'for', 'examination:', 'Procedure:', 'Prior', 'studies:', 'Results:', 'Opinion:'];
    for (const word of words(text).filter((word) => !headingWords.includes(word))) expect(kept).toContain(word);
  });

  it('should answer an empty report with no sections', () => {
    expect(parseReport('  \n\n ')).toEqual({ impression: null, sections: [] });
  });
});
