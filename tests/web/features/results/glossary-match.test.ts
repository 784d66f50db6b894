import { describe, expect, it } from 'vitest';
import { createTermMatcher, type TextPiece } from '../../../../src-web/features/results/glossary-match';

const GLOSSARY = [
  'effusion',
  'opacity',
  'meniscus',
  'metastasis',
  'vertebra',
  'disc bulge',
  'bulge',
  'lateral',
  "Baker's cyst",
  'cyst',
  'unremarkable',
].map((term) => ({ term, definition: `about ${term}` }));
const matcher = createTermMatcher(GLOSSARY);
const marked = (pieces: TextPiece[]) => pieces.flatMap((piece) => (typeof piece === 'string' ? [] : [`${piece.text}=${piece.term.term}`]));

describe('createTermMatcher', () => {
  it('should find whole words in any case, with their plurals', () => {
    const pieces = matcher.split('Small EFFUSION. Two opacities, torn menisci, bone metastases, lumbar vertebrae.', new Set());
    expect(marked(pieces)).toEqual([
      'EFFUSION=effusion',
      'opacities=opacity',
      'menisci=meniscus',
      'metastases=metastasis',
      'vertebrae=vertebra',
    ]);
  });

  it('should keep every character of the text, in order', () => {
    const text = 'A small effusion and a disc bulge at L4-L5.';
    const pieces = matcher.split(text, new Set());
    expect(pieces.map((piece) => (typeof piece === 'string' ? piece : piece.text)).join('')).toBe(text);
  });

  it('should not match inside other words (bilateral, effusions-like prefixes)', () => {
    expect(marked(matcher.split('Bilateral changes. Cystic areas. Noneffusion.', new Set()))).toEqual([]);
  });

  it('should prefer the longer term, across a line break too', () => {
    expect(marked(matcher.split('Broad disc\nbulge. Another bulge.', new Set()))).toEqual(['disc\nbulge=disc bulge', 'bulge=bulge']);
    expect(marked(matcher.split("No Baker's cyst.", new Set()))).toEqual(["Baker's cyst=Baker's cyst"]);
  });

  it('should mark a term once per section: the seen set carries over between paragraphs', () => {
    const seen = new Set<string>();
    expect(marked(matcher.split('Effusion here. Effusion there.', seen))).toEqual(['Effusion=effusion']);
    expect(marked(matcher.split('An effusion again, unremarkable otherwise.', seen))).toEqual(['unremarkable=unremarkable']);
    expect(marked(matcher.split('Effusion in a new section.', new Set()))).toEqual(['Effusion=effusion']);
  });

  it('should leave text alone without a glossary', () => {
    expect(createTermMatcher([]).split('Effusion.', new Set())).toEqual(['Effusion.']);
  });
});
