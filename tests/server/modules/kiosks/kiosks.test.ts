import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KioskIdentitySchema } from '@contract/api/kiosks';
import { backends } from '../../helpers/database';
import { cookieBrowser, cookieFrom, type CookieBrowser } from '../../helpers/cookie-browser';
import { CLIENT_HEADERS } from '../appointments/self-service-kit';
import { STAFF_CLAIMS, useStaffTestApp, type StaffBrowser } from '../staff-access/identity-kit';
import { handoffRows, risWorkerFor } from '../check-in/check-in-kit';
import { useRisListener } from '../check-in/ris-listener';
import { OLIVIA, resetKioskIdentityAttempts, SEED, startKioskTests } from './kiosk-kit';

// Lobby kiosks on a real database (docs/rules/kiosk.md#enrollment): kiosk administrators add them,
// a kiosk enrolls with its one-time code into a revocable token, and at the kiosk a patient is
// found by last name and date of birth, signs in and checks in. Time is the app's test clock.

describe.each(backends())('kiosks on %s', (backend) => {
  const staffApp = useStaffTestApp({ backend });
  const { server, signedIn: staffWith } = staffApp;
  const ris = useRisListener(() => server.clock.now());
  let itAdmin: StaffBrowser;

  async function addKiosk(body: object = { name: 'Parramatta lobby 1', clinicSlug: 'parramatta' }) {
    const response = await itAdmin.request('POST', '/api/staff/kiosks', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ kiosk: { id: string; state: string }; code: string; expiresAt: string }>();
  }

  /** A browser in kiosk mode that enrolls with `code`: its kiosk cookie. */
  async function enrolledKiosk(code: string): Promise<CookieBrowser> {
    const kiosk = cookieBrowser(server.app, '__Host-portal_kiosk', '198.51.100.40');
    const response = await kiosk.request('POST', '/api/kiosk/enroll', { code });
    expect(response.statusCode, response.body).toBe(200);
    return kiosk;
  }

  beforeAll(async () => {
    itAdmin = await startKioskTests(staffApp);
  });
  beforeEach(async () => {
    await resetKioskIdentityAttempts(server);
    await server.db.query('delete from ris_handoff');
    await server.db.query('delete from check_in');
    await server.db.query(`update appointment set status = 'BOOKED' where booking_key = $1`, [OLIVIA.bookingKey]);
  });

  it('enrolls a kiosk once with its code into an HttpOnly token cookie; only hashes are stored', async () => {
    const added = await addKiosk();
    expect(added.kiosk.state).toBe('PENDING');
    expect(added.code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    const kiosk = cookieBrowser(server.app, '__Host-portal_kiosk', '198.51.100.40');
    const enrolled = await kiosk.request('POST', '/api/kiosk/enroll', { code: added.code.toLowerCase() });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    expect(KioskIdentitySchema.parse(enrolled.json())).toEqual({
      name: 'Parramatta lobby 1',
      clinicSlug: 'parramatta',
      clinicName: expect.any(String),
    });
    expect(enrolled.body).not.toContain(kiosk.token ?? 'no token');
    expect(String(enrolled.headers['set-cookie'])).toMatch(
      /^__Host-portal_kiosk=[A-Za-z0-9_-]{43}; Path=\/; Expires=Tue, 31 Dec 2030 23:59:59 GMT; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect((await kiosk.request('GET', '/api/kiosk/me')).json()).toMatchObject({ name: 'Parramatta lobby 1' });

    // Once only.
    const again = await cookieBrowser(server.app, '__Host-portal_kiosk', '198.51.100.41').request('POST', '/api/kiosk/enroll', {
      code: added.code,
    });
    expect(again.statusCode).toBe(400);
    const [row] = await server.db.query<{ token_sha256: string }>(`select token_sha256 from kiosk where id = $1::uuid`, [added.kiosk.id]);
    expect(row?.token_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_sha256).not.toBe(kiosk.token);
    const codes = await server.db.query<{ code_sha256: string }>(
      `select code_sha256 from kiosk_enrollment_code where kiosk_id = $1::uuid`,
      [added.kiosk.id],
    );
    expect(codes.map((code) => code.code_sha256)).not.toContain(added.code);
  });

  it('refuses an expired code and a code replaced by a newer one', async () => {
    const added = await addKiosk({ name: 'Front door' });
    const newer = await itAdmin.request('POST', `/api/staff/kiosks/${added.kiosk.id}/enrollment-code`, {});
    expect(newer.statusCode).toBe(201);
    const stranger = cookieBrowser(server.app, '__Host-portal_kiosk', '198.51.100.42');
    expect((await stranger.request('POST', '/api/kiosk/enroll', { code: added.code })).statusCode).toBe(400);
    server.clock.advance(24 * 60 * 60_000 + 1_000);
    const expired = await stranger.request('POST', '/api/kiosk/enroll', { code: newer.json<{ code: string }>().code });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ message: expect.stringContaining('wrong, used or expired') });
  });

  it('sends a revoked kiosk back to enrollment at once, and lists kiosks with their state for kiosk administrators only', async () => {
    const added = await addKiosk({ name: 'Revoked lobby' });
    const kiosk = await enrolledKiosk(added.code);
    expect((await itAdmin.request('POST', `/api/staff/kiosks/${added.kiosk.id}/revoke`, {})).json()).toMatchObject({ state: 'REVOKED' });
    const refused = await kiosk.request('GET', '/api/kiosk/me');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'kiosk_not_enrolled' });
    const list = await itAdmin.request('GET', '/api/staff/kiosks');
    expect(list.json<{ kiosks: Array<{ id: string; state: string }> }>().kiosks.find((entry) => entry.id === added.kiosk.id)?.state).toBe(
      'REVOKED',
    );
    const desk = await staffWith(STAFF_CLAIMS);
    expect((await desk.request('GET', '/api/staff/kiosks')).statusCode).toBe(403);
  });

  it("finds today's appointment by last name (any case) and date of birth, at the kiosk's clinic only", async () => {
    const kiosk = await enrolledKiosk((await addKiosk()).code);
    const found = await kiosk.request('POST', '/api/kiosk/check-in/identity', { lastName: ' ARRIVAL ', dateOfBirth: OLIVIA.dateOfBirth });
    // The demo's general FEEDBACK questionnaire is not answered yet: the kiosk asks it first.
    expect(found.json()).toEqual({
      appointmentBookingKeys: [OLIVIA.bookingKey],
      samePatient: true,
      feedbackQuestionnaireAnswered: false,
      disabledReason: null,
    });
    await server.db.query(
      `insert into questionnaire_answer (questionnaire_id, owner_type, owner_key, scope, result, saved_at)
       select id, 'APPOINTMENT', $1, 'general', '{"overall": 5}'::jsonb, now() from questionnaire where type = 'FEEDBACK'`,
      [OLIVIA.bookingKey],
    );
    const answered = await kiosk.request('POST', '/api/kiosk/check-in/identity', OLIVIA_WHO);
    expect(answered.json()).toMatchObject({ feedbackQuestionnaireAnswered: true });
    await server.db.query(`delete from questionnaire_answer where owner_key = $1`, [OLIVIA.bookingKey]);
    const wrong = await kiosk.request('POST', '/api/kiosk/check-in/identity', { lastName: OLIVIA.lastName, dateOfBirth: '1983-06-29' });
    expect(wrong.json()).toMatchObject({ appointmentBookingKeys: [], disabledReason: null });
    const elsewhere = await enrolledKiosk((await addKiosk({ name: 'Chatswood lobby', clinicSlug: 'chatswood' })).code);
    expect((await elsewhere.request('POST', '/api/kiosk/check-in/identity', OLIVIA_WHO)).json()).toMatchObject({
      appointmentBookingKeys: [],
    });
    // Too early in the day: check-in opens 120 minutes before 13:00.
    server.clock.set(new Date(SEED.getTime() - 90 * 60_000));
    expect((await kiosk.request('POST', '/api/kiosk/check-in/identity', OLIVIA_WHO)).json()).toMatchObject({
      disabledReason: 'NOT_YET_OPEN',
    });
    expect(
      (await cookieBrowser(server.app, '__Host-portal_kiosk', '198.51.100.43').request('POST', '/api/kiosk/check-in/identity', OLIVIA_WHO))
        .statusCode,
    ).toBe(401);
  });

  it('limits identity checks per person and per kiosk, so a kiosk cannot be used to probe who has appointments', async () => {
    const kiosk = await enrolledKiosk((await addKiosk()).code);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await kiosk.request('POST', '/api/kiosk/check-in/identity', OLIVIA_WHO)).statusCode).toBe(200);
    }
    const person = await kiosk.request('POST', '/api/kiosk/check-in/identity', OLIVIA_WHO);
    expect(person.statusCode).toBe(429);
    for (let attempt = 0; attempt < 24; attempt += 1) {
      await kiosk.request('POST', '/api/kiosk/check-in/identity', { lastName: `Probe${attempt}`, dateOfBirth: '1970-01-01' });
    }
    const probing = await kiosk.request('POST', '/api/kiosk/check-in/identity', { lastName: 'Another', dateOfBirth: '1970-01-02' });
    expect(probing.statusCode).toBe(429);
    expect(probing.json()).toMatchObject({ message: expect.stringContaining('this kiosk') });
    server.clock.advance(10 * 60_000 + 1_000);
    expect((await kiosk.request('POST', '/api/kiosk/check-in/identity', OLIVIA_WHO)).statusCode).toBe(200);
  });

  it('checks the patient in at the kiosk after sign-in, with no form, handed to the RIS as a kiosk check-in', async () => {
    const kiosk = await enrolledKiosk((await addKiosk()).code);
    const [appointment] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1`, [
      OLIVIA.bookingKey,
    ]);
    const url = `/api/kiosk/check-in/${OLIVIA.bookingKey}/${appointment?.id ?? ''}`;
    // The kiosk alone cannot check anyone in.
    expect((await kiosk.request('POST', url, {})).statusCode).toBe(401);
    const signIn = await server.app.inject({
      method: 'POST',
      url: '/api/patient-access/authenticate',
      remoteAddress: '198.51.100.40',
      headers: CLIENT_HEADERS,
      payload: { bookingKey: OLIVIA.bookingKey, type: 'APPOINTMENT', dateOfBirth: OLIVIA.dateOfBirth },
    });
    const session = cookieFrom(signIn, '__Host-portal_session');
    const checkedIn = await kiosk.request(
      'POST',
      url,
      {},
      { cookie: `__Host-portal_kiosk=${kiosk.token ?? ''}; __Host-portal_session=${session ?? ''}` },
    );
    expect(checkedIn.statusCode, checkedIn.body).toBe(202);
    expect(checkedIn.json()).toMatchObject({ state: 'CHECKING_IN' });
    await risWorkerFor(server.db, server.clock, ris).runOnce();
    expect(ris.received.at(-1)?.body).toMatchObject({
      event: 'check_in.complete',
      channel: 'KIOSK',
      kiosk: 'Parramatta lobby 1',
      referralUploaded: false,
    });
    expect(await handoffRows(server.db)).toEqual([{ kind: 'check_in', status: 'sent', attempts: 1, last_error: null }]);
    const identity = await kiosk.request('POST', '/api/kiosk/check-in/identity', OLIVIA_WHO);
    expect(identity.json()).toMatchObject({ disabledReason: 'ALREADY_CHECKED_IN' });
  });
});

const OLIVIA_WHO = { lastName: OLIVIA.lastName, dateOfBirth: OLIVIA.dateOfBirth };
