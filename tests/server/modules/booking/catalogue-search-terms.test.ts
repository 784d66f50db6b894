import { describe, expect, it } from 'vitest';
import { CatalogueSchema, SearchSynonymsSchema, ExamSearchTermsSchema } from '@contract/api/booking';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';

// The exam search's data (docs/rules/booking.md#exam-search): the demo provider's search terms and
// synonym groups, seeded into the database (migration 0028) and served with the catalogue.

describe.each(backends())('GET /api/booking/catalogue search data, on %s', (backend) => {
  const server = useTestApp({ backend });

  it('serves each exam with its search terms and the provider synonym groups in their order', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/booking/catalogue' });
    expect(response.statusCode).toBe(200);
    const body = CatalogueSchema.parse(response.json());
    expect(body.exams.find((exam) => exam.slug === 'xr-opg')?.searchTerms).toEqual(expect.arrayContaining(['teeth', 'dental', 'jaw']));
    expect(body.exams.find((exam) => exam.slug === 'xr-knee')?.searchTerms).toEqual([]);
    expect(body.searchSynonyms?.[0]).toEqual([
      'x-ray',
      'xray',
      'x ray',
      'radiograph',
      'radiography',
      'plain film',
      'рендген',
      'ртг',
      'снимка',
    ]);
    expect(body.searchSynonyms?.some((group) => group.includes('DEXA') && group.includes('bone density'))).toBe(true);
  });
});

describe('search data schemas', () => {
  it('bound the synonym groups: 2 to 12 terms each, at most 100 groups, no empty or control-character term', () => {
    expect(SearchSynonymsSchema.safeParse([['ct', 'cat']]).success).toBe(true);
    expect(SearchSynonymsSchema.safeParse([['ct']]).success).toBe(false);
    expect(SearchSynonymsSchema.safeParse([Array.from({ length: 13 }, (_, index) => `t${index}`)]).success).toBe(false);
    expect(SearchSynonymsSchema.safeParse(Array.from({ length: 101 }, () => ['a', 'b'])).success).toBe(false);
    expect(SearchSynonymsSchema.safeParse([['ct', '  ']]).success).toBe(false);
    expect(SearchSynonymsSchema.safeParse([['ct', 'c\u0000t']]).success).toBe(false);
  });

  it('bound the search terms of an exam: at most 20, each at most 60 characters', () => {
    expect(ExamSearchTermsSchema.safeParse(['teeth']).success).toBe(true);
    expect(ExamSearchTermsSchema.safeParse(Array.from({ length: 21 }, (_, index) => `t${index}`)).success).toBe(false);
    expect(ExamSearchTermsSchema.safeParse(['x'.repeat(61)]).success).toBe(false);
  });
});
