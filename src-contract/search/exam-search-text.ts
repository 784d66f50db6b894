/**
 * How the exam search reads words (docs/rules/booking.md#exam-search): the same steps for the
 * catalogue and for what the patient types, so "X-rays of the left knee" and "knee xray" meet.
 * Provider words (synonyms, lay terms, their Macedonian words) are data in the catalogue; this
 * file holds only word rules of the portal's two languages that no provider would change.
 */

/**
 * Words that say nothing about which exam: articles and the like, the side of the body (every exam
 * here covers either side), and words such as "scan" or "test" that most exams could carry.
 */
const STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'for',
  'and',
  'or',
  'on',
  'in',
  'at',
  'to',
  'with',
  'my',
  'me',
  'i',
  'please',
  'need',
  'want',
  'get',
  'book',
  'scan',
  'exam',
  'examination',
  'test',
  'study',
  'imaging',
  'image',
  'left',
  'right',
  'l',
  'r',
  'lt',
  'rt',
  'bilateral',
  'both',
  'side',
  'sided',
  // The same in Macedonian (the catalogue's synonyms carry the Macedonian exam words).
  'на',
  'за',
  'и',
  'од',
  'со',
  'во',
  'ми',
  'ме',
  'сакам',
  'треба',
  'закажи',
  'преглед',
  'снимање',
  'лево',
  'десно',
  'лева',
  'десна',
  'лев',
  'десен',
  'двете',
  'страна',
]);

/** Plurals English does not make with -s. */
const IRREGULAR: Record<string, string> = { feet: 'foot', teeth: 'tooth', children: 'child', women: 'woman', men: 'man' };

/** Singular of a word, by the common English endings ("knees", "biopsies", "sinuses"). */
export function singular(word: string): string {
  const irregular = IRREGULAR[word];
  if (irregular !== undefined) return irregular;
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('uses') || word.endsWith('sses') || word.endsWith('ches') || word.endsWith('shes') || word.endsWith('xes')) {
    return word.slice(0, -2);
  }
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/**
 * Splits a text into lower-case words without accents or punctuation, and joins a lone letter to
 * the next word so "x ray", "x-ray" and "X-Ray" all read as "xray", and "V/Q" as "vq".
 */
export function tokenize(text: string): string[] {
  const words = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  const joined: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] ?? '';
    const next = words[index + 1];
    // A single letter that is not a word of its own ("a", "i") or a side ("l", "r").
    if (word.length === 1 && !STOP_WORDS.has(word) && next !== undefined) {
      joined.push(word + next);
      index++;
    } else {
      joined.push(word);
    }
  }
  return joined;
}

/** One word as the index keeps it: singular, or null for a word that says nothing about the exam. */
export function processTerm(term: string): string | null {
  const word = singular(term);
  return STOP_WORDS.has(term) || STOP_WORDS.has(word) ? null : word;
}

/** The words of a text as the index keeps them. */
export function searchWords(text: string): string[] {
  return tokenize(text).flatMap((word) => processTerm(word) ?? []);
}

/** Edits (insert, delete, change one letter) between two words, stopping once past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/** Typos forgiven in a word: none in short words (CT, MRI, hip), one from 4 letters, two from 8. */
export function typosAllowed(term: string): number {
  if (term.length >= 8) return 2;
  return term.length >= 4 ? 1 : 0;
}
