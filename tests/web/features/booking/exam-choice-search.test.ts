import { describe, expect, it } from 'vitest';
import { BookingExamChoice } from '../../../../src-web/features/booking/booking-exam-choice';
import { demoCatalogue } from './exam-demo-catalogue';

/** Step 0's store with the demo catalogue: the plain filter until the word search has loaded, then the word search. */
async function choiceWithCatalogue(): Promise<BookingExamChoice> {
  const catalogue = demoCatalogue();
  const choice = new BookingExamChoice({
    api: { catalogue: () => Promise.resolve(catalogue), walkInExams: () => Promise.resolve([]) },
    selectionChanged: () => undefined,
  });
  await choice.loadCatalogue();
  return choice;
}

const slugs = (choice: BookingExamChoice) => choice.visibleExams.map((exam) => exam.slug);

describe('BookingExamChoice search', () => {
  it('answers with the plain filter until the word search has loaded, then with the word search', async () => {
    const choice = await choiceWithCatalogue();
    choice.search = 'xray chest';
    expect(choice.searchIndexState).toBe('idle');
    expect(slugs(choice)).toEqual([]);
    choice.search = 'knee';
    expect(slugs(choice)).toEqual(['mri-knee', 'xr-knee']);

    await choice.prepareSearch();
    expect(choice.searchIndexState).toBe('loaded');
    choice.setSearch('xray chest');
    expect(slugs(choice)).toEqual(['xr-chest']);
  });

  it('lists every exam for a search of small words only', async () => {
    const choice = await choiceWithCatalogue();
    await choice.prepareSearch();
    choice.setSearch('the scan');
    expect(slugs(choice)).toHaveLength(choice.catalogue?.exams.length ?? -1);
  });

  it('ends the search when the patient browses by modality or body part', async () => {
    const choice = await choiceWithCatalogue();
    await choice.prepareSearch();
    choice.setSearch('pizza');
    expect(slugs(choice)).toEqual([]);
    choice.toggleBodyPart('knee');
    expect(choice.search).toBe('');
    expect(slugs(choice)).toEqual(['mri-knee', 'xr-knee']);
    choice.setSearch('brain');
    choice.setModality(choice.catalogue?.modalities.find((modality) => modality.slug === 'xr')?.id ?? null);
    expect(choice.search).toBe('');
    expect(slugs(choice)).toEqual(['xr-knee']);
  });
});

describe('BookingExamChoice catalogue', () => {
  it('asks once, and a second caller waits for the first request (a link restores its exams)', async () => {
    const catalogue = demoCatalogue();
    let answer: () => void = () => undefined;
    let requests = 0;
    const choice = new BookingExamChoice({
      api: {
        catalogue: () => {
          requests += 1;
          return new Promise((resolve) => (answer = () => resolve(catalogue)));
        },
        walkInExams: () => Promise.resolve([]),
      },
      selectionChanged: () => undefined,
    });
    const early = choice.loadCatalogue(); // start.tsx, before the page
    let pageSawExams: boolean | null = null;
    const page = choice.loadCatalogue().then(() => (pageSawExams = choice.examsBySlug.has('xr-chest')));
    answer();
    await Promise.all([early, page]);
    expect(requests).toBe(1);
    expect(pageSawExams).toBe(true);
    await choice.loadCatalogue();
    expect(requests).toBe(1);
  });
});
