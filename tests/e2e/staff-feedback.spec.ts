import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { waitForMailTo } from './helpers/mail';
import { appointmentSlugOf, deliverReport, quickReportLinkIn } from './helpers/result-delivery';
import { DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * The staff feedback table (docs/rules/referrers.md#report-quality-feedback) at 1440x900 against
 * the real server: three reports delivered and rated through the referrers' mail links, then staff
 * read them under the questionnaire's own questions (never "clarity 4"), filter by referrer,
 * modality and a date range (the server filters), and export the filter as CSV (the downloaded
 * file read back). axe on every state.
 *
 * Henry's bone scan (declined) and Isla's ultrasound (expired): no other journey delivers to them.
 */

const HENRY = { key: 'nM6PKfbEQE9NK0sk52Tm0g', dateOfBirth: '1962-10-03', email: 'henry.demo@example.com' };
const ISLA = { key: 'BFSMa1I94pcis4LgybhGOg', dateOfBirth: '1979-09-09', email: 'isla.mockridge@example.com' };
const ANA = { name: 'Dr Ana Tablewood', providerNumber: '3361122B' };
const MARKO = { name: 'Д-р Марко Табела', providerNumber: null };
const FEEDBACK_PATH = '/api/image_viewer_link/questionnaires';

const GIVEN = [
  {
    who: HENRY,
    accession: 'E2E-TBL-1',
    referrer: ANA,
    email: 'ana.table1@example.com',
    answer: { clarity: 5, clinicalQuestion: 4, turnaround: 2, comment: '=1+2 looks odd' },
  },
  {
    who: ISLA,
    accession: 'E2E-TBL-2',
    referrer: ANA,
    email: 'ana.table2@example.com',
    answer: { clarity: 3, clinicalQuestion: 5, turnaround: 4 },
  },
  {
    who: ISLA,
    accession: 'E2E-TBL-3',
    referrer: MARKO,
    email: 'marko.table3@example.com',
    answer: { clarity: 1, clinicalQuestion: 2, turnaround: 5, comment: 'Одлично, благодарам' },
  },
];

/** Rates a report through the referrer's mail link, as the feedback page would. */
async function rate(request: APIRequestContext, email: string, answer: object): Promise<void> {
  const link = quickReportLinkIn((await waitForMailTo(email)).text ?? '');
  const imsec = link === null ? null : new URL(link).searchParams.get('imsec');
  if (imsec === null) throw new Error(`no quick report link was mailed to ${email}`);
  const url = `${FEEDBACK_PATH}?imsec=${encodeURIComponent(imsec)}`;
  const questionnaire = (await (await request.get(url)).json()) as { questionnaire: { questionnaireId: string } };
  const response = await request.post(url, {
    data: { questionnaireId: questionnaire.questionnaire.questionnaireId, questionnaireResult: answer },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Picks an option of an antd Select named by its label (its role=option list is for screen readers only; the visible items carry the title). */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.locator(`.ant-select-item-option[title="${option}"]`).click();
}

const rowsOf = (table: Locator) => table.locator('tbody tr[data-row-key]');

test.describe.configure({ mode: 'serial' });
// The local identity provider's certificate is self-signed.
test.use({ ignoreHTTPSErrors: true });

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  const slugs = new Map([
    [HENRY.key, await appointmentSlugOf(page, HENRY)],
    [ISLA.key, await appointmentSlugOf(page, ISLA)],
  ]);
  await page.close();
  for (const item of GIVEN) {
    await deliverReport(request, {
      accessionNumber: item.accession,
      appointmentSlug: slugs.get(item.who.key) ?? '',
      reportText: `REPORT ${item.accession}\n\nIMPRESSION:\nNormal.`,
      referrer: { ...item.referrer, email: item.email },
    });
    await rate(request, item.email, item.answer);
  }
});

test('staff read the feedback under its questions, filter by referrer, modality and dates, and export the filter as CSV', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/staff/referrer-feedback');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Please sign in with your organisation account', { timeout: 20_000 });
  await signInThroughPopup(page, () => alert.getByRole('button', { name: 'Sign in' }).click(), DEMO_STAFF);

  const table = page.getByRole('table', { name: /Feedback entries/ });
  await expect(table).toBeVisible({ timeout: 20_000 });
  // The questionnaire's own questions head the score columns; never the field names.
  for (const title of [
    'How clear was the report?',
    'Did the report answer your clinical question?',
    'How satisfied are you with the turnaround time?',
  ])
    await expect(table.getByRole('columnheader', { name: title })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Comments' })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(/\b(clarity|clinicalQuestion|turnaround) \d/);
  const marko = table.getByRole('row', { name: /E2E-TBL-3/ });
  await expect(marko).toContainText(MARKO.name);
  await expect(marko).toContainText('Одлично, благодарам');
  await expectNoSeriousA11yViolations(page, '/staff/referrer-feedback (table)');

  // By referrer: Dr Tablewood's two, newest first.
  await choose(page, 'Referrer', ANA.name);
  await expect(rowsOf(table)).toHaveCount(2);
  await expect(rowsOf(table).nth(0)).toContainText('E2E-TBL-2');
  await expect(rowsOf(table).nth(1)).toContainText('E2E-TBL-1');
  // Sorted by a score, lowest first: 3 before 5.
  await table.getByRole('columnheader', { name: 'How clear was the report?' }).click();
  await table.getByRole('columnheader', { name: 'How clear was the report?' }).click();
  await expect(table.getByRole('columnheader', { name: 'How clear was the report?' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rowsOf(table).nth(0)).toContainText('E2E-TBL-2');

  // And by modality: Henry's bone scan only.
  const henryModality = (await rowsOf(table).nth(1).locator('td').nth(3).textContent()) ?? '';
  await choose(page, 'Modality', henryModality.trim());
  await expect(rowsOf(table)).toHaveCount(1);
  await expect(rowsOf(table).first()).toContainText('E2E-TBL-1');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await choose(page, 'Referrer', ANA.name);
  await expect(rowsOf(table)).toHaveCount(2);

  // A date range that ends yesterday keeps none of today's feedback; one that holds today keeps them.
  const today = new Date();
  const iso = (date: Date) =>
    `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  const yesterday = new Date(today.getTime() - 86_400_000);
  const from = page.getByRole('textbox', { name: 'Given between' });
  const to = page.getByPlaceholder('To date');
  await from.fill(iso(new Date(today.getTime() - 7 * 86_400_000)));
  await to.click();
  await to.fill(iso(yesterday));
  await to.press('Enter');
  await expect(table).toContainText('No feedback matches these filters.');
  await from.click();
  await from.fill(iso(yesterday));
  await to.click();
  await to.fill(iso(today));
  await to.press('Enter');
  await expect(rowsOf(table)).toHaveCount(2);
  // The page as it stands once the range picker has closed (axe caught its closing calendar once).
  await expect(page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/staff/referrer-feedback (filtered)');

  // The CSV of the filter: the two rows, the questions' titles, formula-safe.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^referrer-feedback_\d{4}-\d\d-\d\d_to_\d{4}-\d\d-\d\d\.csv$/);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
  expect(lines[0]).toContain('Referrer,Provider number,Patient,Exam,Modality,Accession number,Given via,How clear was the report?');
  expect(lines).toHaveLength(3);
  expect(lines.slice(1).every((line) => line.includes(`,${ANA.name},${ANA.providerNumber},`))).toBe(true);
  expect(lines.find((line) => line.includes('E2E-TBL-1'))).toMatch(/,5,4,2,'=1\+2 looks odd$/);
  await expect(page.getByRole('status').filter({ hasText: 'The CSV file of 2 feedback entries is downloaded.' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/staff/referrer-feedback (exported)');
});
