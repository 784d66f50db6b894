import type { GlossaryTerm } from '@contract/api/results-glossary';

/**
 * Finding the glossary's terms in a report's text (docs/rules/results.md#glossary): whole words,
 * any case, with their plurals ("opacities", "menisci", "metastases", "vertebrae"); the longest
 * term wins where two overlap ("disc bulge" over "bulge"). Pure: no React.
 */

export type TextPiece = string | { text: string; term: GlossaryTerm };

const escape = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The term and its usual plural, as a pattern (spaces match any run of spaces or a line break). */
function patternOf(term: string): string {
  const words = (value: string) => escape(value).replace(/ +/g, '\\s+');
  if (/[^aeiou]y$/i.test(term)) return `${words(term.slice(0, -1))}(?:y|ies)`;
  if (/us$/i.test(term)) return `${words(term.slice(0, -2))}(?:us|i|uses)`;
  if (/is$/i.test(term)) return `${words(term.slice(0, -2))}(?:is|es)`;
  if (/a$/i.test(term)) return `${words(term)}(?:e|s)?`;
  if (/(?:s|x|ch|sh)$/i.test(term)) return `${words(term)}(?:es)?`;
  return `${words(term)}s?`;
}

export interface TermMatcher {
  /**
   * The text cut into plain runs and terms. `seen` holds the terms already marked in this section
   * (lower case): a term is marked once per section, later mentions stay plain text.
   */
  split(text: string, seen: Set<string>): TextPiece[];
}

export function createTermMatcher(terms: readonly GlossaryTerm[]): TermMatcher {
  const ordered = [...terms].sort((a, b) => b.term.length - a.term.length);
  if (ordered.length === 0) return { split: (text) => [text] };
  // One group per term, so the group that matched names the term.
  const pattern = new RegExp(`(?<![A-Za-z'])(?:${ordered.map((term) => `(${patternOf(term.term)})`).join('|')})(?![A-Za-z])`, 'gi');
  return {
    split(text, seen) {
      const pieces: TextPiece[] = [];
      let last = 0;
      for (const match of text.matchAll(pattern)) {
        const index = match.slice(1).findIndex((group) => group !== undefined);
        const term = ordered[index];
        if (term === undefined || seen.has(term.term.toLowerCase())) continue;
        seen.add(term.term.toLowerCase());
        if (match.index > last) pieces.push(text.slice(last, match.index));
        pieces.push({ text: match[0], term });
        last = match.index + match[0].length;
      }
      if (last < text.length) pieces.push(text.slice(last));
      return pieces;
    },
  };
}
