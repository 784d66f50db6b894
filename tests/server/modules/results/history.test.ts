import { beforeAll, describe, expect, it } from 'vitest';
import { PatientMatchResponseSchema } from '@contract/api/results';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { AMELIA, authenticate, client, LIAM, sessionCheck, setOtpRequired, type Client } from '../patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV, resultsSignIn } from './results-kit';

// The patient's history in the patient portal (docs/rules/results.md#history): the patient match
// form must name this booking's patient; the history is every report of the same person (same
// date of birth and e-mail or phone), across bookings and patient rows, newest exam first.

const EARLIER_KEY = 'LiamEarlierBookingKey01';
const REBOOKED_KEY = 'LiamRebookedNewPatient1';
const DAY = 86_400_000;

describe.each(backends())('patient history on %s', (backend) => {
  const server = useTestApp({ backend, env: INTEGRATION_ENV });
  let portal: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // An earlier booking of Liam's, and one made later under a new patient row with the same details.
    await server.db.query(
      `insert into appointment (booking_key, patient_id, exam_id, clinic_id, resource_id, status, during)
       select $2, patient_id, exam_id, clinic_id, resource_id, 'CHECKED_IN', tstzrange(lower(during) - interval '400 days', upper(during) - interval '400 days')
         from appointment where booking_key = $1 limit 1`,
      [LIAM.bookingKey, EARLIER_KEY],
    );
    const [copy] = await server.db.query<{ id: string }>(
      `insert into patient (title, first_name, last_name, date_of_birth, email, contact_number, postcode)
       select title, first_name, last_name, date_of_birth, upper(email), contact_number, postcode
         from patient where id = (select patient_id from appointment where booking_key = $1 limit 1) returning id::text as id`,
      [LIAM.bookingKey],
    );
    await server.db.query(
      `insert into appointment (booking_key, patient_id, exam_id, clinic_id, resource_id, status, during)
       select $2, $3::uuid, exam_id, clinic_id, resource_id, 'CHECKED_IN', tstzrange(lower(during) - interval '200 days', upper(during) - interval '200 days')
         from appointment where booking_key = $1 limit 1`,
      [LIAM.bookingKey, REBOOKED_KEY, copy?.id],
    );
    const now = server.clock.now().getTime();
    ids.earlier = await deliverReport(server.app, server.db, EARLIER_KEY, {
      accessionNumber: 'ACC-H-1',
      releaseAt: new Date(now - 300 * DAY).toISOString(),
    });
    ids.rebooked = await deliverReport(server.app, server.db, REBOOKED_KEY, {
      accessionNumber: 'ACC-H-2',
      releaseAt: new Date(now - 100 * DAY).toISOString(),
    });
    ids.pending = await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-H-3',
      releaseAt: new Date(now + 3 * DAY).toISOString(),
    });
    ids.amelia = await deliverReport(server.app, server.db, AMELIA.bookingKey, {
      accessionNumber: 'ACC-H-4',
      releaseAt: new Date(now - DAY).toISOString(),
    });
    portal = await resultsSignIn(server.app, server.db, LIAM, 'PATIENT_PORTAL');
  });

  const match = (body: object, browser: Client = portal) => browser.request('POST', `/api/results/${LIAM.bookingKey}/patient-match`, body);

  it('lists every report of the same person, newest exam first, with unreleased ones announced but not shown', async () => {
    const response = await match({ dateOfBirth: LIAM.dateOfBirth, email: 'Liam.Example@example.com' });
    expect(response.statusCode, response.body).toBe(200);
    const { historyAppointments } = PatientMatchResponseSchema.parse(response.json());
    expect(historyAppointments.map((row) => row.resultId)).toEqual([ids.pending, ids.rebooked, ids.earlier]);
    expect(historyAppointments[0]).toMatchObject({ state: 'NOT_RELEASED', reportText: null, imageViewerLink: null });
    expect(historyAppointments[1]).toMatchObject({ state: 'RELEASED', referrerName: 'Dr Amelia Nguyen' });
    expect(historyAppointments[1]?.imageViewerLink).toMatch(/^v1\./);
    expect(JSON.stringify(historyAppointments)).not.toContain(ids.amelia);
  });

  it('matches the phone in either spelling', async () => {
    expect((await match({ dateOfBirth: LIAM.dateOfBirth, phone: '+61491570006' })).statusCode).toBe(200);
    expect((await match({ dateOfBirth: LIAM.dateOfBirth, phone: '0491570006' })).statusCode).toBe(200);
  });

  it.each([
    ['another date of birth', { dateOfBirth: '1991-03-15', email: 'liam.example@example.com' }],
    ["another person's e-mail", { dateOfBirth: LIAM.dateOfBirth, email: 'amelia.sample@example.com' }],
    ['another phone', { dateOfBirth: LIAM.dateOfBirth, phone: '0491570156' }],
  ])('answers 404 patient_matching_error for %s', async (_name, body) => {
    const response = await match(body);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'patient_matching_error' });
  });

  it('refuses both an e-mail and a phone, or neither (400), and a results sign-in that is not the portal (401)', async () => {
    expect((await match({ dateOfBirth: LIAM.dateOfBirth })).statusCode).toBe(400);
    expect((await match({ dateOfBirth: LIAM.dateOfBirth, email: 'liam.example@example.com', phone: '0491570006' })).statusCode).toBe(400);
    server.clock.advance(60_000);
    const resultsOnly = await resultsSignIn(server.app, server.db, LIAM);
    expect((await match({ dateOfBirth: LIAM.dateOfBirth, email: 'liam.example@example.com' }, resultsOnly)).statusCode).toBe(401);
  });

  // One sign-in per visit (docs/rules/results.md#history): the results sign-in proved who the patient is, so the
  // history of the same person opens without the match form, from either results page.
  describe('one sign-in', () => {
    const history = (browser: Client, bookingKey: string = LIAM.bookingKey) => browser.request('GET', `/api/results/${bookingKey}/history`);

    it("opens the same person's history with the results e-mail's sign-in, as with the portal's", async () => {
      server.clock.advance(60_000);
      const resultsOnly = await resultsSignIn(server.app, server.db, LIAM);
      for (const browser of [resultsOnly, portal]) {
        const response = await history(browser);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['cache-control']).toBe('private, no-store');
        const { historyAppointments } = PatientMatchResponseSchema.parse(response.json());
        // The booking's own report (pending) is the result page's; the list holds the earlier ones.
        expect(historyAppointments.map((row) => row.resultId)).toEqual([ids.rebooked, ids.earlier]);
        expect(historyAppointments[0]).toMatchObject({ state: 'RELEASED', referrerName: 'Dr Amelia Nguyen' });
        expect(historyAppointments[0]?.imageViewerLink).toMatch(/^v1\./);
        expect(JSON.stringify(historyAppointments)).not.toContain(ids.amelia);
      }
      const pdf = await resultsOnly.request('GET', `/api/results/${LIAM.bookingKey}/history/${ids.earlier ?? ''}/report.pdf`);
      expect(pdf.statusCode).toBe(200);
    });

    it("never opens another person's history: another booking's session, none, or a half-way sign-in is 401", async () => {
      server.clock.advance(60_000);
      const amelia = await resultsSignIn(server.app, server.db, AMELIA);
      expect((await history(amelia)).statusCode).toBe(401);
      expect((await amelia.request('GET', `/api/results/${LIAM.bookingKey}/history/${ids.earlier ?? ''}/report.pdf`)).statusCode).toBe(401);
      // Her own history holds nothing of Liam's (her one report is her result page's).
      const own = PatientMatchResponseSchema.parse((await history(amelia, AMELIA.bookingKey)).json());
      expect(own.historyAppointments).toEqual([]);
      expect((await history(client(server.app))).statusCode).toBe(401);
      const halfWay = client(server.app);
      const first = await halfWay.request('POST', '/api/patient-access/authenticate', {
        bookingKey: LIAM.bookingKey,
        type: 'APPOINTMENT_RESULTS',
        dateOfBirth: LIAM.dateOfBirth,
      });
      expect(first.statusCode).toBe(200);
      expect((await history(halfWay)).statusCode).toBe(401);
    });

    it("never opens the history or the result with the appointment's own sign-in (no code)", async () => {
      await setOtpRequired(server.db, false);
      try {
        const appointment = client(server.app);
        expect((await authenticate(appointment, LIAM)).statusCode).toBe(200);
        expect((await sessionCheck(appointment, LIAM.bookingKey)).statusCode).toBe(200);
        expect((await history(appointment)).statusCode).toBe(401);
        expect((await appointment.request('GET', `/api/results/${LIAM.bookingKey}`)).statusCode).toBe(401);
        expect((await sessionCheck(appointment, LIAM.bookingKey, 'PATIENT_PORTAL')).statusCode).toBe(401);
      } finally {
        await setOtpRequired(server.db, true);
      }
    });

    it('answers the authenticated check of either results page with one results sign-in, and no other type', async () => {
      server.clock.advance(60_000);
      const resultsOnly = await resultsSignIn(server.app, server.db, LIAM);
      const portalCheck = await sessionCheck(resultsOnly, LIAM.bookingKey, 'PATIENT_PORTAL');
      expect(portalCheck.statusCode, portalCheck.body).toBe(200);
      expect(portalCheck.json()).toMatchObject({ bookingKey: LIAM.bookingKey, type: 'APPOINTMENT_RESULTS' });
      expect((await sessionCheck(resultsOnly, LIAM.bookingKey, 'APPOINTMENT_RESULTS')).statusCode).toBe(200);
      expect((await sessionCheck(resultsOnly, LIAM.bookingKey, 'APPOINTMENT')).statusCode).toBe(401);
      expect((await sessionCheck(resultsOnly, AMELIA.bookingKey, 'PATIENT_PORTAL')).statusCode).toBe(401);
      expect((await sessionCheck(portal, LIAM.bookingKey, 'APPOINTMENT_RESULTS')).statusCode).toBe(200);
    });
  });

  it("serves the PDF of a released history report, and 404 for an unreleased or another person's", async () => {
    const pdf = (id: string | undefined) => portal.request('GET', `/api/results/${LIAM.bookingKey}/history/${id ?? ''}/report.pdf`);
    expect((await pdf(ids.earlier)).statusCode).toBe(200);
    expect((await pdf(ids.pending)).statusCode).toBe(404);
    expect((await pdf(ids.amelia)).statusCode).toBe(404);
    // Opened in a tab, a refusal goes to the patient portal's result page, which says why.
    const tab = await portal.request('GET', `/api/results/${LIAM.bookingKey}/history/${ids.amelia ?? ''}/report.pdf`, undefined, {
      'sec-fetch-mode': 'navigate',
    });
    expect(tab.statusCode).toBe(303);
    expect(tab.headers.location).toBe(`/appointments/${LIAM.bookingKey}/result/patient`);
  });
});
