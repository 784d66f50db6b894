import { beforeAll, describe, expect, it } from 'vitest';
import { ShareListSchema, SharedResultsSchema } from '@contract/api/result-shares';
import { MAX_FAILURES_PER_KEY } from '../../../../src-server/modules/patient-access/service';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { AMELIA, client, GRACE, LIAM, type Client } from '../patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV, resultsSignIn } from '../results/results-kit';
import { CONTACT_EMAIL, contactSignIn, mailedShareToken, openShare, share } from './shares-kit';

// Sharing a result with a contact, on a real database (docs/rules/results.md#sharing): the link
// goes through the mail outbox, the contact signs in with the patient's date of birth and a code
// sent to the contact, reads only what was shared, shows up on the patient's share list, and is
// refused from the first request after the patient revokes.

/** What a browser sends when a link opens a document in a tab. */
const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html,application/pdf' };
const ANY_RESULT_ID = '00000000-0000-4000-8000-000000000001';

describe.each(backends())('result shares on %s', (backend) => {
  const server = useTestApp({ backend, env: INTEGRATION_ENV });
  let liam: Client;

  beforeAll(async () => {
    const day = 86_400_000;
    const now = server.clock.now().getTime();
    await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-S-1',
      releaseAt: new Date(now - day).toISOString(),
    });
    await deliverReport(server.app, server.db, AMELIA.bookingKey, {
      accessionNumber: 'ACC-S-2',
      releaseAt: new Date(now - day).toISOString(),
    });
    liam = await resultsSignIn(server.app, server.db, LIAM);
  });

  const audits = async (action: string) =>
    server.db.query<{ details: Record<string, unknown> }>(`select details from audit_log where action = $1 order by id`, [action]);

  it('shares by e-mail: the contact gets the link, only its hash is stored, and the creation is audited without the address', async () => {
    const { response, record } = await share(liam, LIAM.bookingKey);
    expect(response.statusCode, response.body).toBe(201);
    expect(record).toMatchObject({
      type: 'RESULT',
      contactDetails: CONTACT_EMAIL,
      contactDetailsType: 'EMAIL',
      dateRevoked: null,
      accessCount: 0,
      accesses: [],
    });
    const token = await mailedShareToken(server.db, CONTACT_EMAIL);
    const stored = await server.db.query<{ token_sha256: string }>(`select token_sha256 from result_share where id = $1`, [record.id]);
    expect(stored[0]?.token_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await server.db.query(`select * from result_share`))).not.toContain(token);
    const created = await audits('result.share_created');
    expect(created.at(-1)?.details).toMatchObject({ share: record.id, type: 'RESULT', contactType: 'EMAIL' });
    expect(JSON.stringify(created)).not.toContain(CONTACT_EMAIL);
  });

  it('lets the contact in with the date of birth and a code sent to the contact, and shows that result read-only', async () => {
    const { record } = await share(liam, LIAM.bookingKey);
    const token = await mailedShareToken(server.db, CONTACT_EMAIL);
    const contact = await contactSignIn(server.app, server.db, token, LIAM.dateOfBirth);

    const shared = SharedResultsSchema.parse((await contact.request('GET', '/api/shared-results')).json());
    expect(shared).toMatchObject({ type: 'RESULT', patientFirstName: 'Liam', sharedBy: 'Liam E.' });
    expect(shared.results).toHaveLength(1);
    expect(shared.results[0]?.reportText).toContain('no internal derangement');
    const pdf = await contact.request('GET', `/api/shared-results/${shared.results[0]?.resultId ?? ''}/report.pdf?download=true`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="report-ACC-S-1\.pdf"/);

    // The patient sees the opening on the share list.
    const list = ShareListSchema.parse((await liam.request('GET', `/api/results/${LIAM.bookingKey}/shares`)).json());
    expect(list.shares.find((row) => row.id === record.id)?.accesses).toHaveLength(1);
    expect(list).toMatchObject({ smsEnabled: false, noteMaxLength: 150 });
    expect((await audits('result.share_opened')).at(-1)?.details).toMatchObject({ share: record.id });
  });

  it('counts every opening while listing the newest 20', async () => {
    const { record } = await share(liam, LIAM.bookingKey);
    // One opening through the contact's sign-in, 21 earlier ones (each a sign-in with its own code) written directly.
    await contactSignIn(server.app, server.db, await mailedShareToken(server.db, CONTACT_EMAIL), LIAM.dateOfBirth);
    for (let hour = 1; hour <= 21; hour += 1) {
      const openedAt = new Date(server.clock.now().getTime() - hour * 3_600_000).toISOString();
      await server.db.query(`insert into result_share_access (share_id, opened_at) values ($1::uuid, $2)`, [record.id, openedAt]);
    }
    const list = ShareListSchema.parse((await liam.request('GET', `/api/results/${LIAM.bookingKey}/shares`)).json());
    const listed = list.shares.find((row) => row.id === record.id);
    expect(listed?.accessCount).toBe(22);
    expect(listed?.accesses).toHaveLength(20);
    // Newest first: the sign-in just now heads the list.
    expect(listed?.accesses[0]?.openedAtUTC).toBe(server.clock.now().toISOString());
  });

  it("keeps a contact's session away from everything else: the booking, the patient's result routes, the shares and other reports", async () => {
    await share(liam, LIAM.bookingKey);
    const contact = await contactSignIn(server.app, server.db, await mailedShareToken(server.db, CONTACT_EMAIL), LIAM.dateOfBirth);
    for (const path of [
      `/api/results/${LIAM.bookingKey}`,
      `/api/results/${LIAM.bookingKey}/report.pdf`,
      `/api/results/${LIAM.bookingKey}/shares`,
      `/api/appointments/${LIAM.bookingKey}`,
    ])
      expect((await contact.request('GET', path)).statusCode, path).toBe(401);
    expect(
      (
        await contact.request('POST', `/api/results/${LIAM.bookingKey}/shares`, {
          contactDetails: 'x@example.com',
          contactDetailsType: 'EMAIL',
          type: 'RESULT',
        })
      ).statusCode,
    ).toBe(401);
    const [amelia] = await server.db.query<{ id: string }>(`select id::text as id from result_report where accession_number = 'ACC-S-2'`);
    expect((await contact.request('GET', `/api/shared-results/${amelia?.id ?? ''}/report.pdf`)).statusCode).toBe(404);
  });

  it("refuses the contact's next request once revoked (410 share_revoked), and the link itself from then on", async () => {
    const { record } = await share(liam, LIAM.bookingKey);
    const token = await mailedShareToken(server.db, CONTACT_EMAIL);
    const contact = await contactSignIn(server.app, server.db, token, LIAM.dateOfBirth);
    const opened = await contact.request('GET', '/api/shared-results');
    expect(opened.statusCode).toBe(200);
    const resultId = SharedResultsSchema.parse(opened.json()).results[0]?.resultId ?? '';

    const revoked = await liam.request('POST', `/api/results/${LIAM.bookingKey}/shares/${record.id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<{ dateRevoked: string | null }>().dateRevoked).not.toBeNull();
    const next = await contact.request('GET', '/api/shared-results');
    expect(next.statusCode).toBe(410);
    expect(next.json()).toMatchObject({ code: 'share_revoked' });
    // A PDF tab opened before the revocation is sent to the page that says so, not shown the JSON.
    const pdfPath = `/api/shared-results/${resultId}/report.pdf`;
    const tab = await contact.request('GET', pdfPath, undefined, NAVIGATION);
    expect(tab.statusCode).toBe(303);
    expect(tab.headers.location).toBe('/deny?revoked=true');
    expect((await contact.request('GET', pdfPath)).statusCode).toBe(410);
    const again = await openShare(client(server.app), token, LIAM.dateOfBirth);
    expect(again.statusCode).toBe(410);
    expect((await audits('result.share_revoked')).at(-1)?.details).toEqual({ share: record.id });
  });

  it('refuses a share past its 30 days (410 share_expired)', async () => {
    await share(liam, LIAM.bookingKey);
    const token = await mailedShareToken(server.db, CONTACT_EMAIL);
    const contact = await contactSignIn(server.app, server.db, token, LIAM.dateOfBirth);
    server.clock.advance(31 * 86_400_000);
    try {
      expect((await openShare(client(server.app), token, LIAM.dateOfBirth)).json()).toMatchObject({ code: 'share_expired' });
      // The session itself ended long before (12 hours at most); a fresh one is refused at the link.
      expect((await contact.request('GET', '/api/shared-results')).statusCode).toBe(401);
      // A PDF tab of the ended session goes to the shared results page, which signs the contact in again.
      const tab = await contact.request('GET', `/api/shared-results/${ANY_RESULT_ID}/report.pdf`, undefined, NAVIGATION);
      expect(tab.statusCode).toBe(303);
      expect(tab.headers.location).toBe('/results/shared');
    } finally {
      server.clock.advance(-31 * 86_400_000);
    }
  });

  it("answers a wrong date of birth like an unknown link, locks the share with the shared max-attempts message, and never the patient's own sign-in", async () => {
    await share(liam, LIAM.bookingKey);
    const token = await mailedShareToken(server.db, CONTACT_EMAIL);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < MAX_FAILURES_PER_KEY; attempt += 1)
      statuses.push((await openShare(client(server.app), token, '1990-01-01')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const locked = await openShare(client(server.app), token, LIAM.dateOfBirth);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'max_attempts_reached', details: { maxAttempts: 'max_attempts_reached_shared' } });
    const unknown = await openShare(client(server.app), 'A'.repeat(43), LIAM.dateOfBirth);
    expect(unknown.statusCode).toBe(401);
    // Liam still signs in to his own results (after the code resend pause).
    server.clock.advance(60_000);
    await resultsSignIn(server.app, server.db, LIAM);
  });

  it.each([
    ['a phone number while SMS is off', { contactDetails: '0491570006', contactDetailsType: 'PHONE' }, 'invalid_contact_details'],
    ['a malformed e-mail', { contactDetails: 'gp@', contactDetailsType: 'EMAIL' }, 'invalid_contact_details'],
    ['an e-mail sent as a phone', { contactDetailsType: 'PHONE' }, 'validation_failed'],
    ['a note over 150 characters', { note: 'n'.repeat(151) }, 'validation_failed'],
    ['an unknown field', { cc: 'x@example.com' }, 'validation_failed'],
  ])('refuses %s (400 %s) and stores and sends nothing', async (_name, body, code) => {
    const [before] = await server.db.query<{ n: number }>(`select count(*)::int as n from result_share`);
    const { response } = await share(liam, LIAM.bookingKey, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code });
    const [after] = await server.db.query<{ n: number }>(`select count(*)::int as n from result_share`);
    expect(after?.n).toBe(before?.n);
  });

  it('lets either results sign-in share the whole history (one sign-in per visit), and nothing before a report is released', async () => {
    expect((await share(liam, LIAM.bookingKey, { type: 'HISTORY' })).response.statusCode).toBe(201);
    server.clock.advance(60_000);
    const portal = await resultsSignIn(server.app, server.db, LIAM, 'PATIENT_PORTAL');
    expect((await share(portal, LIAM.bookingKey, { type: 'HISTORY' })).response.statusCode).toBe(201);
    const grace = await resultsSignIn(server.app, server.db, GRACE);
    const none = await share(grace, GRACE.bookingKey);
    expect(none.response.statusCode).toBe(404);
    expect(none.response.json()).toMatchObject({ code: 'result_not_available' });
  });

  it("answers 404 for revoking another booking's share or an unknown one", async () => {
    const amelia = await resultsSignIn(server.app, server.db, AMELIA);
    const { record } = await share(amelia, AMELIA.bookingKey);
    expect((await liam.request('POST', `/api/results/${LIAM.bookingKey}/shares/${record.id}/revoke`)).statusCode).toBe(404);
    expect(
      (await liam.request('POST', `/api/results/${LIAM.bookingKey}/shares/00000000-0000-4000-8000-000000000009/revoke`)).statusCode,
    ).toBe(404);
    const list = ShareListSchema.parse((await amelia.request('GET', `/api/results/${AMELIA.bookingKey}/shares`)).json());
    expect(list.shares.find((row) => row.id === record.id)?.dateRevoked).toBeNull();
  });
});
