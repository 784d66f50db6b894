import MiniSearch, { type SearchResult } from 'minisearch';
import type { Catalogue, Exam } from '../api/booking';
import { editDistance, processTerm, searchWords, tokenize, typosAllowed } from './exam-search-text';

/**
 * The exam search (docs/rules/booking.md#exam-search), one for both sides: the booking step and
 * the server's GET /api/booking/exams?search= answer the same query with the same exams. It pulls
 * in MiniSearch, so the booking step imports it lazily, when the patient first focuses or types in
 * the search field.
 */

type Field = 'name' | 'terms' | 'modality' | 'bodyPart' | 'synonyms';

type ExamDocument = Record<Field, string> & { id: string };

/** Words in the exam's own name and terms count most; words only a synonym added, least. */
const FIELD_WEIGHT: Record<Field, number> = { name: 3, terms: 3, modality: 2, bodyPart: 2, synonyms: 1 };
const FIELDS = Object.keys(FIELD_WEIGHT) as Field[];

/** A whole word counts more than its start ("knee" for "kn"), and that more than a typo. */
const EXACT = 1;
const PREFIX = 0.6;
const TYPO = 0.4;

export interface ExamSearch {
  /** Exams for a query, best first; null when the query holds no word to search for (only "the", "scan"...). */
  search(query: string): Exam[] | null;
}

function containsRun(words: string[], run: string[]): boolean {
  if (run.length === 0 || run.length > words.length) return false;
  for (let start = 0; start + run.length <= words.length; start++) {
    if (run.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

/** Every word of each synonym group one of whose members appears in the exam's texts. */
function synonymsFor(texts: string[], groups: string[][][]): string {
  const textWords = texts.map(searchWords);
  const found = groups.filter((members) => members.some((member) => textWords.some((words) => containsRun(words, member))));
  return found.map((members) => members.map((member) => member.join(' ')).join(' ; ')).join(' ; ');
}

/** How well one query word matched the document word `term`: exact, its start, or a typo away. */
function matchQuality(queryWord: string, term: string): number {
  if (term === queryWord) return EXACT;
  if (term.startsWith(queryWord)) return PREFIX;
  const allowed = typosAllowed(queryWord);
  return allowed > 0 && editDistance(queryWord, term, allowed) <= allowed ? TYPO : 0;
}

/** A word found only through a typo counts half: "pain" may be "plain" but more likely is not. */
const TYPO_WORD = 0.5;
/** An exam whose every name word the patient typed ("ultrasound breast") beats one that only contains them. */
const WHOLE_NAME = 1;

interface Scored {
  exam: Exam;
  /** How many of the patient's words were found (a typo counting half). */
  words: number;
  relevance: number;
}

/**
 * Scores a result: for each query word matched, its best match weighted by the field it was found
 * in, plus a bonus when the query names every word of the exam's name.
 */
function score(result: SearchResult, exam: Exam): Scored {
  let words = 0;
  let relevance = 0;
  const queryWords = [...new Set(result.queryTerms)];
  for (const queryWord of queryWords) {
    let best = 0;
    let bestQuality = 0;
    for (const term of result.terms) {
      const quality = matchQuality(queryWord, term);
      if (quality === 0) continue;
      const fields = (result.match[term] ?? []) as Field[];
      const weighted = quality * Math.max(0, ...fields.map((field) => FIELD_WEIGHT[field] ?? 0));
      if (weighted > best) best = weighted;
      if (quality > bestQuality) bestQuality = quality;
    }
    relevance += best;
    words += bestQuality === TYPO ? TYPO_WORD : bestQuality > 0 ? 1 : 0;
  }
  const nameWords = searchWords(exam.name);
  if (nameWords.every((nameWord) => queryWords.some((queryWord) => matchQuality(queryWord, nameWord) > 0))) relevance += WHOLE_NAME;
  return { exam, words, relevance };
}

/** Builds the search index over a catalogue's exams, their terms and the provider's synonyms. */
export function createExamSearch(catalogue: Catalogue): ExamSearch {
  const modalities = new Map(catalogue.modalities.map((modality) => [modality.id, `${modality.name} ${modality.slug}`]));
  const bodyParts = new Map(catalogue.bodyParts.map((part) => [part.slug, part.name]));
  const groups = (catalogue.searchSynonyms ?? []).map((members) => members.map(searchWords).filter((words) => words.length > 0));
  const examsBySlug = new Map(catalogue.exams.map((exam) => [exam.slug, exam]));

  const documents: ExamDocument[] = catalogue.exams.map((exam) => {
    const own = {
      name: exam.name,
      terms: (exam.searchTerms ?? []).join(' ; '),
      modality: modalities.get(exam.modalityId) ?? exam.modalityName,
      bodyPart: exam.bodyPartSlugs.map((slug) => bodyParts.get(slug) ?? slug).join(' ; '),
    };
    const texts = [own.name, ...(exam.searchTerms ?? []), own.modality, ...exam.bodyPartSlugs.map((slug) => bodyParts.get(slug) ?? slug)];
    return { id: exam.slug, ...own, synonyms: synonymsFor(texts, groups) };
  });

  const index = new MiniSearch<ExamDocument>({
    fields: FIELDS,
    idField: 'id',
    tokenize,
    processTerm,
    searchOptions: {
      prefix: true,
      fuzzy: (term) => typosAllowed(term) || false,
      combineWith: 'OR',
    },
  });
  index.addAll(documents);

  return {
    search(query: string): Exam[] | null {
      if (searchWords(query).length === 0) return null;
      const ranked = index.search(query).flatMap((result) => {
        const exam = examsBySlug.get(String(result.id));
        return exam ? [score(result, exam)] : [];
      });
      // Only the exams that match the most of the patient's words: "mri knee pain" lists MRI knee
      // (two words found), not every MRI and every knee exam (one word each).
      const most = Math.max(0, ...ranked.map((entry) => entry.words));
      return ranked
        .filter((entry) => entry.words === most)
        .sort(
          (a, b) =>
            b.relevance - a.relevance ||
            a.exam.priority - b.exam.priority ||
            (a.exam.name < b.exam.name ? -1 : a.exam.name > b.exam.name ? 1 : 0),
        )
        .map((entry) => entry.exam);
    },
  };
}
