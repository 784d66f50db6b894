import type { Server } from 'node:http';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { waitForMailTo } from './helpers/mail';
import { appointmentSlugOf, deliverReport, pageApi } from './helpers/result-delivery';
import { signInWithCode } from './helpers/results';
import { EMBED_PARENT_PORT, startParentSite } from './helpers/servers';
import { codeFromMail, signIn } from './helpers/sign-in';

/**
 * Sharing a result (docs/rules/results.md#sharing) against the real server: the patient, signed in
 * to the result from the results e-mail link (APPOINTMENT_RESULTS), shares it by e-mail through
 * the share dialog; the contact
 * opens the link from that mail, signs in with the patient's date of birth and the code mailed to
 * the contact, and reads the report; the patient sees the contact's access on the share list and
 * revokes it; the contact's next load (and a PDF tab) lands on /deny with the revoked message. From
 * the patient portal inside a provider's frame the patient shares the whole history, and the
 * contact reads it. axe on every page.
 *
 * The journey delivers its own report, as the RIS does (POST /api/integration/results), to a
 * booking no other journey signs in to, so its code-send limits and share list are its own.
 */

/** Jack's MRI prostate: no other journey signs in to it, so its code-send limits are its own. */
const JACK = { key: 'r2gio7z_AuIa9srd_WgtNw', dateOfBirth: '1958-05-17', email: 'jack.placeholder@example.com', sharedBy: 'Jack P.' };
const CONTACT = 'sam.contact@example.com';
const HISTORY_CONTACT = 'dr.history@example.com';
const REPORT = 'MRI PROSTATE\n\nFINDINGS:\nNo suspicious lesion in the peripheral zone.\n\nIMPRESSION:\nPI-RADS 2.';
/** A later report of the same booking (the one above then reads as an earlier result). */
const SECOND_REPORT = 'MRI PROSTATE\n\nClinical history: rising PSA.\n\nFindings: no focal lesion.\n\nConclusion: Unremarkable prostate.';

interface Share {
  id: string;
  dateRevoked: string | null;
  accesses: { openedAtUTC: string }[];
}

/** A report of Jack's booking delivered, then his result page opened from its address, which asks him to sign in. */
async function deliverAndSignIn(page: Page, request: APIRequestContext, accessionNumber: string, reportText: string): Promise<void> {
  await deliverReport(request, { accessionNumber, appointmentSlug: await appointmentSlugOf(page, JACK), reportText });
  await page.goto(`/appointments/${JACK.key}/result`);
  await expect(page).toHaveURL(/\/authentication\?/);
  await signIn(page, JACK);
}

// Each journey signs in, waits for mail and reads a report: two minutes each on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test('a patient shares a result by e-mail; the contact signs in and reads it; the patient sees the access and revokes it', async ({
  page,
  browser,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // The patient opens the result from the results e-mail link and signs in with the code.
  await deliverAndSignIn(page, request, 'E2E-SHARE-1', REPORT);
  await expect(page.getByRole('heading', { level: 2, name: t('results.report.title') })).toBeVisible();
  // The conclusion first (docs/rules/results.md#reading-the-report); the earlier results come with the same sign-in.
  await expect(page.getByTestId('report-impression').first()).toContainText('PI-RADS 2.');
  await expect(page.getByRole('heading', { name: t('results.history.title') })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/appointments/…/result (patient)');

  // The patient shares the result by e-mail through the share dialog.
  await page.getByRole('button', { name: t('resultSharing.openResult') }).click();
  const dialog = page.getByRole('dialog', { name: t('resultSharing.titleResult') });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(t('resultSharing.list.empty'))).toBeVisible();
  await dialog.getByLabel(/^Their e-mail address/).fill(CONTACT);
  await dialog.getByLabel(t('resultSharing.form.contactName')).fill('Sam');
  await dialog.getByLabel(t('resultSharing.form.note')).fill('My scan, as promised.');
  await dialog.getByRole('button', { name: t('resultSharing.form.submit'), exact: true }).click();
  await expect(dialog.getByText(t('resultSharing.success.EMAIL', { contact: 'Sam' }))).toBeVisible();
  await expect(dialog.getByText(t('resultSharing.list.neverOpened'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'share dialog after sharing');
  await dialog
    .getByRole('button', { name: t('resultSharing.close') })
    .last()
    .click();
  await expect(dialog).toBeHidden();

  // The contact, in a browser of their own on a phone, opens the link from the mail.
  const mail = await waitForMailTo(CONTACT);
  const link = /(https?:\/\/\S+\/results\/shared#[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(link, mail.text).toBeTruthy();
  const contactContext = await browser.newContext({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
  const contact = await contactContext.newPage();
  try {
    await contact.goto(link ?? '');
    await expect(contact).toHaveURL(/\/authentication\?returnUrl=%2Fresults%2Fshared&shared=true$/);
    await expect(contact.getByRole('heading', { level: 1, name: t('authentication.titleShared') })).toBeVisible();
    await expect(contact.getByText(t('authentication.introShared'))).toBeVisible();
    await expect(contact.getByLabel(t('authentication.fields.contactNumber'))).toHaveCount(0);
    await expectNoSeriousA11yViolations(contact, '/authentication (shared link, 375x667)');

    await contact.getByLabel(t('authentication.fields.dateOfBirthShared')).fill(JACK.dateOfBirth);
    await contact.getByRole('button', { name: t('authentication.submit') }).click();
    const code = contact.getByLabel(t('authentication.code.label'));
    await expect(code).toBeVisible();
    // The code goes to the contact, not to the patient.
    await code.fill(await codeFromMail(CONTACT));
    await contact.getByRole('button', { name: t('authentication.code.verify') }).click();

    await expect(contact).toHaveURL(/\/results\/shared\?shared=true$/);
    await expect(contact.getByText(t('results.shared.sharedBy', { sharedBy: JACK.sharedBy }))).toBeVisible();
    await expect(contact.getByTestId('report-impression').getByText(/^PI-RADS 2\.$/)).toBeVisible();
    await expect(contact.getByRole('button', { name: /share/i })).toHaveCount(0);
    const pdfHref = (await contact.getByRole('link', { name: t('results.report.view') }).getAttribute('href')) ?? '';
    const pdf = await contact.evaluate(async (href) => {
      const response = await fetch(href, { credentials: 'include' });
      return { status: response.status, type: response.headers.get('content-type') };
    }, pdfHref);
    expect(pdf).toEqual({ status: 200, type: 'application/pdf' });
    expect(await contact.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(contact, '/results/shared (contact, 375x667)');

    // The patient sees the contact's access on the share list (the dialog loads it as it opens), and revokes the share.
    await page.getByRole('button', { name: t('resultSharing.openResult') }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(/^Opened 1 time, last on /)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'share dialog with the access log');
    await dialog.getByRole('button', { name: t('resultSharing.list.revokeLabel', { contact: 'Sam' }) }).click();
    await dialog.getByRole('button', { name: t('resultSharing.list.revokeYes') }).click();
    await expect(dialog.getByText(/^Revoked on /)).toBeVisible();
    // The server agrees: the share is revoked.
    const list = await pageApi<{ shares: Share[] }>(page, 'GET', `/api/results/${JACK.key}/shares`);
    expect(list.body.shares.map((share) => share.dateRevoked !== null)).toEqual([true]);

    // The contact's next load ends on /deny with the revoked message.
    await contact.reload();
    await expect(contact).toHaveURL(/\/deny\?revoked=true$/);
    await expect(contact.getByText(t('deny.revoked'))).toBeVisible();
    await expectNoSeriousA11yViolations(contact, '/deny?revoked=true (contact)');
    // A PDF link opened after the revocation lands there too, not on the API's JSON.
    await contact.goto(pdfHref);
    await expect(contact).toHaveURL(/\/deny\?revoked=true$/);
    await expect(contact.getByText(t('deny.revoked'))).toBeVisible();
  } finally {
    await contactContext.close();
  }
});

test('one sign-in on a 390x844 phone: the result, the earlier results, the portal link and a history share, with Share in view', async ({
  page,
  request,
}) => {
  // Needs the report the journey above delivered (serial mode): a second report of the booking
  // makes that one an earlier result.
  await page.setViewportSize({ width: 390, height: 844 });
  await deliverAndSignIn(page, request, 'E2E-SHARE-2', SECOND_REPORT);
  await expect(page).toHaveURL(new RegExp(`/appointments/${JACK.key}/result$`));
  const impression = page.getByTestId('report-impression').first();
  await expect(impression).toContainText(/Unremarkable[\s\S]*prostate\./);
  const term = impression.getByRole('button', { name: /^unremarkable, /i });
  // A tap at the sign-in's Verify button can land on the term once the result replaces the form
  // (the definition is then open already): a tap opens it only when it is closed.
  const definition = impression.getByTestId('glossary-definition');
  if ((await definition.count()) === 0) await term.click();
  await expect(definition).toContainText('nothing of concern');

  // The earlier results: no second date of birth or e-mail.
  const history = page.getByRole('region', { name: t('results.history.title') });
  const list = history.getByRole('list', { name: t('results.history.listLabel') });
  const entry = list.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: 'MRI prostate (multiparametric)' }) });
  await expect(entry).toBeVisible();
  await expect(history.getByRole('textbox')).toHaveCount(0);
  await expect(entry.getByTestId('report-impression')).toContainText('PI-RADS 2.');
  const pdfHref = (await entry.getByRole('link', { name: t('results.report.download') }).getAttribute('href')) ?? '';
  const pdf = await page.evaluate(async (href) => {
    const response = await fetch(href, { credentials: 'include' });
    return { status: response.status, disposition: response.headers.get('content-disposition') ?? '' };
  }, pdfHref);
  expect(pdf.status).toBe(200);
  expect(pdf.disposition).toMatch(/^attachment/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(page, '/appointments/…/result with earlier results (390x844)');

  // The patient portal link opens without asking again, and the whole history is shared from it.
  const portal = `/appointments/${JACK.key}/result/patient?dateOfBirth=${JACK.dateOfBirth}&otpType=EMAIL`;
  await page.goto(portal);
  await expect(page.getByRole('heading', { level: 2, name: t('results.report.title') })).toBeVisible();
  await expect(page).toHaveURL(portal);
  await page.getByRole('button', { name: t('resultSharing.openHistory') }).click();
  const dialog = page.getByRole('dialog', { name: t('resultSharing.titleHistory') });
  await expect(dialog).toBeVisible();
  const share = dialog.getByRole('button', { name: t('resultSharing.form.submit'), exact: true });
  // The primary action is on the screen without scrolling, the shares list still scrolls inside.
  await expect(share).toBeInViewport();
  await expectNoSeriousA11yViolations(page, 'history share dialog (390x844)');
  await dialog.getByLabel(/^Their e-mail address/).fill('gp.phone@example.com');
  await expect(share).toBeInViewport();
  await share.click();
  await expect(dialog.getByText(`${t('resultSharing.list.typeHISTORY')} · ${t('resultSharing.list.viaEMAIL')}`)).toBeVisible();
  await expect(page).toHaveURL(portal);
});

test("inside a provider's frame the patient portal shares the whole history; the contact reads it", async ({ page, browser }) => {
  // Needs the report the first journey delivered (serial mode). The journey before signed in to
  // this booking moments ago: wait out the provider's pause between codes (5 s in the demo).
  await page.waitForTimeout(5_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const link = `/iframe/appointments/${JACK.key}/result/patient?dateOfBirth=${JACK.dateOfBirth}&otpType=EMAIL`;
  const parent: Server = await startParentSite(EMBED_PARENT_PORT, '127.0.0.1', link);
  try {
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    const frame = page.frameLocator('iframe[title="Patient portal"]');
    await expect(frame.getByRole('heading', { level: 1, name: t('authentication.titleResults') })).toBeVisible();
    await signInWithCode(frame, JACK);
    await expect(frame.getByRole('region', { name: t('results.history.title') })).toBeVisible();

    await frame.getByRole('button', { name: t('resultSharing.openHistory') }).click();
    const dialog = frame.getByRole('dialog', { name: t('resultSharing.titleHistory') });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(/^Their e-mail address/).fill(HISTORY_CONTACT);
    await dialog.getByRole('button', { name: t('resultSharing.form.submit'), exact: true }).click();
    // The phone journey above shared the history once already: this share is the newest, first.
    await expect(dialog.getByText(`${t('resultSharing.list.typeHISTORY')} · ${t('resultSharing.list.viaEMAIL')}`)).toHaveCount(2);
    await expectNoSeriousA11yViolations(page, 'history share dialog under /iframe in the provider frame');
    // The frame stayed on the patient portal's result page.
    const framed = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(new URL(framed?.url() ?? 'http://x/').pathname).toBe(`/iframe/appointments/${JACK.key}/result/patient`);
  } finally {
    await new Promise((resolve) => parent.close(resolve));
  }

  // The contact opens the top-level link from the mail and reads the history.
  const mail = await waitForMailTo(HISTORY_CONTACT);
  const shareLink = /(https?:\/\/\S+\/results\/shared#[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(shareLink, mail.text).toBeTruthy();
  const contactContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const contact = await contactContext.newPage();
  try {
    await contact.goto(shareLink ?? '');
    await contact.getByLabel(t('authentication.fields.dateOfBirthShared')).fill(JACK.dateOfBirth);
    await contact.getByRole('button', { name: t('authentication.submit') }).click();
    await contact.getByLabel(t('authentication.code.label')).fill(await codeFromMail(HISTORY_CONTACT));
    await contact.getByRole('button', { name: t('authentication.code.verify') }).click();
    const list = contact.getByRole('list', { name: t('results.shared.listLabel') });
    await expect(list.getByRole('heading', { level: 2, name: 'MRI prostate (multiparametric)' }).first()).toBeVisible();
    await expect(contact.getByText(t('results.shared.sharedBy', { sharedBy: JACK.sharedBy }))).toBeVisible();
    await expectNoSeriousA11yViolations(contact, '/results/shared (history shared with the contact)');
  } finally {
    await contactContext.close();
  }
});
