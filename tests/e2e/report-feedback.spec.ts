import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { waitForMailTo } from './helpers/mail';
import { chooseRadio, surveyDialog } from './helpers/questionnaires';
import { appointmentSlugOf, deliverReport, quickReportLinkIn } from './helpers/result-delivery';
import { DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * Report-quality feedback by the referring doctor (docs/rules/referrers.md#report-quality-feedback)
 * against the real server, SMTP and Chromium: a report delivered naming the referrer's e-mail
 * mails the quick report link; its imsec opens /referrer/report-feedback, the referrer answers
 * the demo questionnaire in the survey modal once, is thanked and taken to the configured page
 * (/referrer-access) after 4 s, and is told "already provided" the next time. The FAQ, and the page without
 * credentials; staff read both answers in the feedback table and its summary. axe on every page. At 1280x800 and at
 * 375x667, each with its own report.
 *
 * Oliver's X-ray knee (cancelled): no other journey signs in to it or delivers results to it.
 */

const OLIVER = { key: 'Nj3PQywTfwZs5UvmttODPA', dateOfBirth: '1957-01-30', email: 'oliver.testwood@example.com' };
const REPORT = 'XR LEFT KNEE\n\nFINDINGS:\nMild medial joint space narrowing.\n\nIMPRESSION:\nEarly osteoarthritis.';
const TEXT = {
  title: 'Report feedback',
  noCredentials: 'No valid credentials available',
  alreadyProvided: 'Feedback already provided for this report. Thank you.',
  provided: 'Thank you, your feedback was sent.',
  faqTitle: 'Report feedback: questions and answers',
  faqLink: 'Questions about report feedback',
};

let appointmentSlug = '';

/** The imsec of the quick report link in the newest report-ready mail to `address`. */
async function imsecFromMail(address: string): Promise<string> {
  const mail = await waitForMailTo(address);
  const link = quickReportLinkIn(mail.text ?? '');
  if (link === null) throw new Error(`the mail to ${address} has no quick report link`);
  const imsec = new URL(link).searchParams.get('imsec');
  if (imsec === null) throw new Error('the quick report link has no imsec');
  return imsec;
}

test.describe.configure({ mode: 'serial' });
// The local identity provider's certificate is self-signed.
test.use({ ignoreHTTPSErrors: true });

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  appointmentSlug = await appointmentSlugOf(page, OLIVER);
  await page.close();
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
]) {
  test(`a referrer gives feedback once from the mail's link, is taken on after 4 s, and is told the second time (${viewport.width}x${viewport.height})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    const referrer = `dr.feedback.${viewport.width}@example.com`;
    await deliverReport(request, {
      accessionNumber: `E2E-FB-${viewport.width}`,
      appointmentSlug,
      reportText: REPORT,
      // A provider number of her own: the demo referrer (2426711A) gives feedback in other journeys, and the filter keys on it.
      referrer: { name: 'Dr Priya Feedback', providerNumber: '2426799X', email: referrer },
    });
    const imsec = await imsecFromMail(referrer);
    const url = `/referrer/report-feedback?imsec=${encodeURIComponent(imsec)}`;

    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: TEXT.title })).toBeVisible();
    const dialog = surveyDialog(page);
    await expect(dialog).toBeVisible();
    // It says which report it rates, on the page and in the dialog.
    await expect(page.getByTestId('feedback-report')).toContainText('Oliver Testwood');
    await expect(dialog.getByRole('heading', { name: /Report feedback: Oliver Testwood, / })).toBeVisible();
    // The default feedback modal size (docs/rules/questionnaires.md#survey-modal).
    await expect(dialog).toHaveClass(/lg/);
    await expectNoSeriousA11yViolations(page, '/referrer/report-feedback (survey)');
    await chooseRadio(dialog, /How clear was the report/, '5');
    await chooseRadio(dialog, /answer your clinical question/, '4');
    await chooseRadio(dialog, /turnaround time/, '3');
    await dialog.getByRole('textbox', { name: /Anything else/ }).fill('Clear and quick, thank you.');
    await dialog.getByRole('button', { name: 'Send feedback', exact: true }).click();

    // Thanked, with the countdown and a link on, then taken to the configured page after 4 s.
    await expect(page.getByRole('status').filter({ hasText: TEXT.provided })).toBeVisible();
    await expect(surveyDialog(page)).toHaveCount(0);
    const sentAt = Date.now();
    await expect(page.getByTestId('redirect-countdown')).toHaveText(/in [34] seconds/);
    await expectNoSeriousA11yViolations(page, '/referrer/report-feedback (provided)');
    // Opened from the mail, not from a report: the configured page (the demo's: the referrer's list).
    await expect(page).toHaveURL(/\/referrer-access$/, { timeout: 8_000 });
    expect(Date.now() - sentAt).toBeGreaterThan(2_500);

    // The second time: already provided, no survey.
    await page.goto(url);
    await expect(page.getByText(TEXT.alreadyProvided)).toBeVisible();
    await expect(surveyDialog(page)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, '/referrer/report-feedback (already provided)');

    // The FAQ, from the page's link.
    await page.getByRole('link', { name: TEXT.faqLink }).click();
    await expect(page.getByRole('heading', { level: 1, name: TEXT.faqTitle })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Who sees my feedback?' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/referrer/report-feedback/faq');
  });
}

test('the feedback page without imsec or accession says there are no valid credentials; a changed link is an error', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto('/referrer/report-feedback');
  await expect(page.getByRole('alert')).toHaveText(TEXT.noCredentials);
  await expectNoSeriousA11yViolations(page, '/referrer/report-feedback (no credentials)');
  await page.goto('/referrer/report-feedback?imsec=v1.k1.not-a-link.tag');
  await expect(page.getByRole('alert')).toContainText('Referrer feedback error');
  await expectNoSeriousA11yViolations(page, '/referrer/report-feedback (error)');
});

test('staff read both answers in the feedback table, filtered by their referrer, and in the summary per referrer', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/staff/referrer-feedback');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Please sign in with your organisation account', { timeout: 20_000 });
  await expectNoSeriousA11yViolations(page, '/staff/referrer-feedback (signed out)');
  await signInThroughPopup(page, () => alert.getByRole('button', { name: 'Sign in' }).click(), DEMO_STAFF);
  // Dr Feedback's two answers (other journeys' feedback left out by the filter, which the server applies).
  await page.getByRole('combobox', { name: 'Referrer' }).click({ timeout: 20_000 });
  await page.locator('.ant-select-item-option[title="Dr Priya Feedback"]').click();
  const table = page.getByRole('table', { name: /Feedback entries/ });
  await expect(table.locator('tbody tr[data-row-key]')).toHaveCount(2);
  await expect(page.getByRole('heading', { level: 2, name: 'Feedback entries (2 feedback entries)' })).toBeVisible();
  await expect(table.getByRole('row', { name: /E2E-FB-375/ })).toContainText('Oliver Testwood');
  const byReferrer = page.getByRole('table', { name: 'Per referrer' });
  await expect(byReferrer.getByRole('row', { name: /Dr Priya Feedback/ }).getByRole('cell')).toHaveText([
    'Dr Priya Feedback',
    '2',
    // The scores' averages under the questionnaire's own questions (the column headers), not their field names.
    '5',
    '4',
    '3',
  ]);
  await expect(byReferrer.getByRole('columnheader', { name: 'How clear was the report?' })).toBeVisible();
  // The filter's list has closed (axe would otherwise read a list still fading out).
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/staff/referrer-feedback');
});
