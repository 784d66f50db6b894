/**
 * A radiologist's report text split into its sections, so the page can show the impression first
 * (docs/rules/results.md#reading-the-report). Pure: no React, no i18n.
 *
 * A heading is a line that is one of the known section names (any case, an optional colon or
 * dash), alone or followed by its first sentence ("Impression: Normal study."). Anything that is
 * not a known heading stays text of the section it is in, and text before the first heading (the
 * exam title, a preamble) is kept as its own section: nothing of the report is lost.
 */

export type ReportSectionKind =
  | 'impression'
  | 'findings'
  | 'history'
  | 'technique'
  | 'comparison'
  | 'recommendation'
  | 'comment'
  | 'addendum'
  /** Text before the first heading, or a whole report without headings. */
  | 'preamble';

export interface ReportSection {
  kind: ReportSectionKind;
  /** Paragraphs (blank-line blocks), line breaks inside kept. */
  paragraphs: string[];
}

export interface ParsedReport {
  /** The first impression-like section (impression, conclusion, opinion, summary), or null. */
  impression: ReportSection | null;
  /** Every other section, in the report's order. */
  sections: ReportSection[];
}

/** Known heading names (upper case, single spaces) and the section each starts. */
const HEADINGS: Record<string, ReportSectionKind> = {
  IMPRESSION: 'impression',
  IMPRESSIONS: 'impression',
  CONCLUSION: 'impression',
  CONCLUSIONS: 'impression',
  OPINION: 'impression',
  SUMMARY: 'impression',
  DIAGNOSIS: 'impression',
  FINDINGS: 'findings',
  FINDING: 'findings',
  REPORT: 'findings',
  RESULT: 'findings',
  RESULTS: 'findings',
  'CLINICAL HISTORY': 'history',
  HISTORY: 'history',
  'CLINICAL INDICATION': 'history',
  'CLINICAL INDICATIONS': 'history',
  INDICATION: 'history',
  INDICATIONS: 'history',
  'CLINICAL DETAILS': 'history',
  'CLINICAL INFORMATION': 'history',
  'CLINICAL NOTES': 'history',
  'REASON FOR EXAM': 'history',
  'REASON FOR EXAMINATION': 'history',
  'REASON FOR STUDY': 'history',
  TECHNIQUE: 'technique',
  PROCEDURE: 'technique',
  PROTOCOL: 'technique',
  COMPARISON: 'comparison',
  COMPARISONS: 'comparison',
  'PRIOR STUDIES': 'comparison',
  'PREVIOUS STUDIES': 'comparison',
  RECOMMENDATION: 'recommendation',
  RECOMMENDATIONS: 'recommendation',
  COMMENT: 'comment',
  COMMENTS: 'comment',
  ADDENDUM: 'addendum',
};

/** "Findings", "**FINDINGS:**", "# Impression -", "Impression: text". Digits never start a name ("L4-L5: …" is text). */
const HEADING_LINE = /^[\s#*_]*([A-Za-z][A-Za-z ]{1,30}?)[\s*_]*(?:[:\-–—][\s*_]*(.*))?$/;

function headingOf(line: string): { kind: ReportSectionKind; rest: string } | null {
  const match = HEADING_LINE.exec(line);
  if (match === null) return null;
  const name = (match[1] ?? '').trim().replace(/\s+/g, ' ').toUpperCase();
  const kind = HEADINGS[name];
  if (kind === undefined) return null;
  // Without a colon or dash, the line must be the name alone (so "Report of the left knee" stays text).
  const rest = (match[2] ?? '').trim();
  return { kind, rest };
}

/** Blank-line blocks, outer blank lines dropped, inner line breaks kept. */
export function reportParagraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '');
}

export function parseReport(text: string): ParsedReport {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const raw: { kind: ReportSectionKind; lines: string[] }[] = [];
  let current: { kind: ReportSectionKind; lines: string[] } = { kind: 'preamble', lines: [] };
  for (const line of lines) {
    const heading = headingOf(line);
    if (heading === null) {
      current.lines.push(line);
      continue;
    }
    raw.push(current);
    current = { kind: heading.kind, lines: heading.rest === '' ? [] : [heading.rest] };
  }
  raw.push(current);

  const sections = raw
    .map((section) => ({ kind: section.kind, paragraphs: reportParagraphs(section.lines.join('\n')) }))
    // An empty preamble is nothing; an empty named section is kept out too (no heading over nothing).
    .filter((section) => section.paragraphs.length > 0);
  const first = sections.findIndex((section) => section.kind === 'impression');
  if (first === -1) return { impression: null, sections };
  return { impression: sections[first] ?? null, sections: sections.filter((_, index) => index !== first) };
}
