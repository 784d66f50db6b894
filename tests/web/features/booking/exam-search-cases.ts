/**
 * Real queries patients type, with the exams they must find (docs/rules/booking.md#exam-search).
 * One table for the unit test (exam-search.test.ts, against the demo catalogue file) and the
 * browser journey (tests/e2e/exam-search.spec.ts, typed into the real search field).
 *
 * - `top`: the first exam listed;
 * - `first`: every one of these exams is among the first `slugs.length` listed (ties in relevance
 *   and priority may list them in either order);
 * - `only`: exactly these exams are listed, in any order;
 * - `none`: nothing is listed.
 */
export interface ExamSearchCase {
  query: string;
  top?: string;
  first?: string[];
  only?: string[];
  none?: true;
}

/**
 * What a search found, as the case reads it, beside what the case expects: equal when the case
 * passes. Shared by the unit test, the server's route test and the browser journey.
 */
export function caseOutcome(example: ExamSearchCase, found: readonly string[]): { actual: object; expected: object } {
  const sorted = (slugs: readonly string[]) => [...slugs].sort();
  return {
    actual: {
      none: example.none ? found : undefined,
      top: example.top === undefined ? undefined : found[0],
      first: example.first === undefined ? undefined : sorted(found.slice(0, example.first.length)),
      only: example.only === undefined ? undefined : sorted(found),
    },
    expected: {
      none: example.none ? [] : undefined,
      top: example.top,
      first: example.first === undefined ? undefined : sorted(example.first),
      only: example.only === undefined ? undefined : sorted(example.only),
    },
  };
}

export const EXAM_SEARCH_CASES: ExamSearchCase[] = [
  // Five queries a substring search got wrong (docs/rules/booking.md#exam-search).
  { query: 'knee mri', top: 'mri-knee' },
  { query: 'MRI left knee', top: 'mri-knee' },
  { query: 'CT head', top: 'ct-brain' },
  { query: 'chest x-ray', top: 'xr-chest' },
  { query: 'xray chest', top: 'xr-chest' },
  // Word order, small words, sides, singular and plural.
  { query: 'Chest X-Ray', top: 'xr-chest' },
  { query: 'x ray of the chest', top: 'xr-chest' },
  { query: 'X-rays of my knees', top: 'xr-knee' },
  { query: 'right knee x-ray', top: 'xr-knee' },
  { query: 'ct of the chest', top: 'ct-chest' },
  { query: 'brain mri', top: 'mri-brain' },
  { query: 'lumbar spine xray', top: 'xr-lumbar-spine' },
  { query: 'ankle xray', top: 'xr-ankle-foot' },
  { query: 'sinuses', top: 'ct-sinuses' },
  { query: 'knees', first: ['mri-knee', 'xr-knee'] },
  { query: 'mri', only: ['mri-brain', 'mri-knee', 'mri-lumbar-spine', 'mri-shoulder', 'mri-prostate', 'mri-cardiac'], top: 'mri-brain' },
  // One-letter typos.
  { query: 'mri brian', top: 'mri-brain' },
  { query: 'kneee', first: ['mri-knee', 'xr-knee'] },
  { query: 'ultrasund breast', top: 'us-breast' },
  { query: 'mamogram', first: ['mg-screening-mammogram', 'mg-diagnostic-mammogram'] },
  { query: 'shoulder utrasound', top: 'us-shoulder' },
  // Synonyms: modalities.
  { query: 'chest radiograph', top: 'xr-chest' },
  { query: 'MR brain', top: 'mri-brain' },
  { query: 'cat scan head', top: 'ct-brain' },
  { query: 'abdominal sonogram', top: 'us-abdomen' },
  { query: 'US pelvis', top: 'us-pelvis' },
  { query: 'mammography', first: ['mg-screening-mammogram', 'mg-diagnostic-mammogram'] },
  { query: 'breast screen', top: 'mg-screening-mammogram' },
  { query: 'bone density', top: 'bmd-dexa-hip-spine' },
  { query: 'DEXA', first: ['bmd-dexa-hip-spine', 'bmd-body-composition'] },
  { query: 'BMD scan', top: 'bmd-dexa-hip-spine' },
  { query: 'nuclear bone scan', top: 'nm-bone-scan' },
  // Synonyms and lay words: body parts.
  { query: 'head scan', first: ['ct-brain', 'mri-brain'] },
  { query: 'belly ultrasound', top: 'us-abdomen' },
  { query: 'tummy ultrasound', top: 'us-abdomen' },
  { query: 'lower back mri', top: 'mri-lumbar-spine' },
  { query: 'dental xray', top: 'xr-opg' },
  { query: 'teeth', top: 'xr-opg' },
  { query: 'broken wrist', top: 'xr-hand-wrist' },
  { query: 'pregnancy ultrasound', top: 'us-obstetric-first-trimester' },
  { query: 'baby scan', top: 'us-obstetric-first-trimester' },
  { query: 'cardiac mri', top: 'mri-cardiac' },
  { query: 'heart mri', top: 'mri-cardiac' },
  { query: 'V/Q scan', top: 'nm-lung-vq-scan' },
  { query: 'thyroid', first: ['us-thyroid', 'nm-thyroid-scan'] },
  { query: 'shoulder injection', top: 'ir-shoulder-injection' },
  { query: 'cortisone injection shoulder', top: 'ir-shoulder-injection' },
  { query: 'breast biopsy', top: 'ir-breast-biopsy' },
  { query: 'prostate', only: ['mri-prostate'] },
  { query: 'mri knee pain', only: ['mri-knee'] },
  // In Macedonian, the portal's other language: the catalogue's synonyms carry the words.
  { query: 'магнетна резонанца колено', top: 'mri-knee' },
  { query: 'МР на лево колено', top: 'mri-knee' },
  { query: 'рендген на гради', top: 'xr-chest' },
  { query: 'КТ глава', top: 'ct-brain' },
  { query: 'ехо на стомак', top: 'us-abdomen' },
  { query: 'мамографија', first: ['mg-screening-mammogram', 'mg-diagnostic-mammogram'] },
  { query: 'штитна жлезда', first: ['us-thyroid', 'nm-thyroid-scan'] },
  { query: 'рендген колена', top: 'xr-knee' },
  // Nothing to find.
  { query: 'pizza', none: true },
  { query: 'qwertyuiop', none: true },
  { query: 'haircut', none: true },
];
