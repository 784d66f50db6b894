import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { codeFromMail } from './sign-in';

/** Test-only bearer token of the RIS integration; scripts/e2e-server.mjs configures its sha256. */
export const E2E_INTEGRATION_TOKEN = 'e2e-integration-token-not-a-secret-0123456789';

/** The smallest PDF the delivery check accepts (no active content). */
const MINIMAL_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

/**
 * A JSON call of the portal's API made by the page itself, so it carries the page's session
 * cookie (and the X-Requested-With header the CSRF guard asks of unsafe calls).
 */
export async function pageApi<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        credentials: 'include',
        headers:
          body === undefined
            ? { 'X-Requested-With': 'XMLHttpRequest' }
            : { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    },
    { method, path, body },
  );
}

/**
 * Delivers a finalised report as the RIS does (POST /api/integration/results, docs/rules/results.md#delivery),
 * released a day ago, with a study so the images can open.
 */
export async function deliverReport(
  request: APIRequestContext,
  report: {
    accessionNumber: string;
    appointmentSlug: string;
    reportText: string;
    /** The referring doctor; an e-mail queues the report-ready mail with the quick report link. */
    referrer?: { name: string; providerNumber: string | null; email?: string };
    /** Whether the study's images exist (the default) or the delivery has none yet. */
    study?: { studyInstanceUid: string } | null;
  },
): Promise<void> {
  const response = await request.post('/api/integration/results', {
    headers: { authorization: `Bearer ${E2E_INTEGRATION_TOKEN}` },
    data: {
      accessionNumber: report.accessionNumber,
      appointmentSlug: report.appointmentSlug,
      reportText: report.reportText,
      reportPdfBase64: Buffer.from(MINIMAL_PDF, 'utf8').toString('base64'),
      referrer: report.referrer ?? { name: 'Dr Daniel Okafor', providerNumber: null },
      releaseAt: new Date(Date.now() - 86_400_000).toISOString(),
      study: report.study === undefined ? { studyInstanceUid: '1.2.826.0.1.3680043.8.498.777' } : report.study,
    },
  });
  expect([200, 201], await response.text()).toContain(response.status());
}

/**
 * A booking's first appointment id (the slug the RIS knows, which a delivery names), read through
 * a signed-in APPOINTMENT session on the page: one code mailed to the patient.
 */
export async function appointmentSlugOf(page: Page, who: { key: string; dateOfBirth: string; email: string }): Promise<string> {
  await page.goto('/about');
  const start = await pageApi(page, 'POST', '/api/patient-access/authenticate', {
    bookingKey: who.key,
    type: 'APPOINTMENT',
    dateOfBirth: who.dateOfBirth,
  });
  expect(start.status).toBe(200);
  expect((await pageApi(page, 'POST', '/api/patient-access/otp', { channel: 'EMAIL' })).status).toBe(202);
  const verified = await pageApi(page, 'POST', '/api/patient-access/otp/verify', { code: await codeFromMail(who.email) });
  expect(verified.status).toBe(200);
  const summary = await pageApi<{ appointments: { slug: string }[] }>(page, 'GET', `/api/appointments/${who.key}`);
  expect(summary.status).toBe(200);
  const slug = summary.body.appointments[0]?.slug;
  if (!slug) throw new Error('the booking has no appointment');
  return slug;
}

/** The quick report link in a referrer's report-ready mail, or null when the text has none. */
export function quickReportLinkIn(mailText: string): string | null {
  return /(https?:\/\/\S+\/referrer\/quick-report\?\S+)/.exec(mailText)?.[1] ?? null;
}
