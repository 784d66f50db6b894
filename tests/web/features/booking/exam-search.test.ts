import { describe, expect, it } from 'vitest';
import { createExamSearch } from '../../../../src-contract/search/exam-search';
import { caseOutcome, EXAM_SEARCH_CASES } from './exam-search-cases';
import { demoCatalogue } from './exam-demo-catalogue';

describe('exam search over the demo catalogue', () => {
  const search = createExamSearch(demoCatalogue());

  it('has a table of at least 40 real queries', () => {
    expect(EXAM_SEARCH_CASES.length).toBeGreaterThanOrEqual(40);
  });

  for (const example of EXAM_SEARCH_CASES) {
    it(`"${example.query}"`, () => {
      const { actual, expected } = caseOutcome(
        example,
        (search.search(example.query) ?? []).map((exam) => exam.slug),
      );
      expect(actual).toEqual(expected);
    });
  }

  it('answers null for a query of small words only, so the list is not filtered by it', () => {
    expect(search.search('the scan of my')).toBeNull();
    expect(search.search('   ')).toBeNull();
  });

  it('ranks equally relevant exams by the provider priority', () => {
    const found = (search.search('mri') ?? []).map((exam) => exam.priority);
    expect(found).toEqual([...found].sort((a, b) => a - b));
  });

  it('finds an exam by a search term only the catalogue data carries', () => {
    const catalogue = demoCatalogue();
    const withoutTerms = createExamSearch({ ...catalogue, exams: catalogue.exams.map((exam) => ({ ...exam, searchTerms: [] })) });
    expect(withoutTerms.search('teeth')).toEqual([]);
    expect(search.search('teeth')?.[0]?.slug).toBe('xr-opg');
  });

  it('reads synonyms from the catalogue data, not from code', () => {
    const catalogue = demoCatalogue();
    const withoutSynonyms = createExamSearch({ ...catalogue, searchSynonyms: [] });
    expect(withoutSynonyms.search('radiograph')).toEqual([]);
    expect(withoutSynonyms.search('tummy')).toEqual([]);
    expect(search.search('radiograph')?.every((exam) => exam.modalityId === 'XR')).toBe(true);
    expect(search.search('tummy')?.map((exam) => exam.slug)).toContain('us-abdomen');
  });
});
