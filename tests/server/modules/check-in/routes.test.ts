import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CheckInStatusSchema, type CheckInStatus } from '@contract/api/check-in';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { signIn, type Signed } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { handoffRows, LIAM, liamsAppointment, resetCheckIn, risWorkerFor, uploadReferral, validForm, type Booked } from './check-in-kit';
import { useRisListener } from './ris-listener';

// Digital check-in on a real database, handed to a real HTTP listener standing in for the
// clinic's RIS (docs/rules/check-in.md). Time is the app's test clock.

describe.each(backends())('digital check-in on %s', (backend) => {
  const server = useTestApp({ backend });
  const ris = useRisListener(() => server.clock.now());
  let liam: Signed;
  let booked: Booked;
  let base: string;

  const status = async (): Promise<CheckInStatus> => CheckInStatusSchema.parse((await liam.get(base)).json());
  const worker = () => risWorkerFor(server.db, server.clock, ris);
  /** The clock at `instant`, and LIAM signed in afresh (a session ends after its idle time). */
  const at = async (instant: Date): Promise<void> => {
    server.clock.set(instant);
    liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
  };
  const minutesBeforeStart = (minutes: number) => new Date(booked.startsAt.getTime() - minutes * 60_000);
  /** Inside the window: an hour before the start (check-in opens 120 minutes before). */
  const inWindow = () => at(minutesBeforeStart(60));

  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    booked = await liamsAppointment(server.db);
    base = `/api/secured/appointments/${LIAM.bookingKey}/check-in/${booked.appointmentId}`;
    await at(minutesBeforeStart(180));
  });
  beforeEach(async () => {
    await resetCheckIn(server.db, booked);
    ris.received.length = 0;
    ris.plan.length = 0;
  });

  it('refuses to start before the window opens and after the appointment starts, naming priorMinutes, and writes nothing', async () => {
    await at(minutesBeforeStart(121));
    expect(await status()).toMatchObject({ enabled: true, windowOpen: false, priorMinutes: 120, state: 'NOT_STARTED' });
    const early = await liam.post(`${base}/prepare`, validForm(booked));
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toMatchObject({ code: 'check_in_window_closed', details: { priorMinutes: 120 } });

    await at(booked.startsAt);
    expect((await status()).windowOpen).toBe(false);
    expect((await liam.post(`${base}/prepare`, validForm(booked))).json()).toMatchObject({ code: 'check_in_window_closed' });
    expect(await handoffRows(server.db)).toEqual([]);
    expect(await server.db.query('select * from check_in')).toEqual([]);

    await at(minutesBeforeStart(120));
    expect((await status()).windowOpen).toBe(true);
  });

  it('asks for the referral first when the exam needs one, with the document type to upload, then lets check-in start', async () => {
    await inWindow();
    await server.db.query(`update exam set referral_required = true where id = $1::uuid`, [booked.examId]);
    expect((await status()).readiness).toEqual({
      ready: false,
      requiredReferralUploaded: false,
      documentTypeId: booked.referralTypeId,
      message: 'Please upload your referral before you check in.',
    });
    const refused = await liam.post(`${base}/prepare`, validForm(booked));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'check_in_not_ready', details: { readiness: { documentTypeId: booked.referralTypeId } } });

    const uploaded = await uploadReferral(server.app, liam, booked);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect((await status()).readiness).toEqual({ ready: true, requiredReferralUploaded: true, documentTypeId: null, message: null });
    expect((await liam.post(`${base}/prepare`, validForm(booked))).statusCode).toBe(202);
  });

  it.each([
    ['a Medicare number whose check digit is wrong', { medicareNumber: '2123 45671 1' }, 'medicareNumber'],
    ['a Medicare number of nine digits', { medicareNumber: '212345670' }, 'medicareNumber'],
    ['a reference number 0', { referenceNumber: '0' }, 'referenceNumber'],
    ['a referral dated tomorrow', { dateOfReferral: 'tomorrow' }, 'dateOfReferral'],
    ['a doctor who is not in the directory', { referrer: '00000000-0000-4000-8000-000000000000' }, 'referrer'],
  ])('refuses %s with a message on that field, and writes nothing', async (_case, change, field) => {
    await inWindow();
    const overrides = { ...change } as Record<string, unknown>;
    if (overrides.dateOfReferral === 'tomorrow') {
      overrides.dateOfReferral = new Date(server.clock.now().getTime() + 36 * 60 * 60_000).toISOString().slice(0, 10);
    }
    const response = await liam.post(`${base}/prepare`, validForm(booked, overrides));
    expect(response.statusCode, response.body).toBe(400);
    expect(JSON.stringify(response.json())).toContain(field);
    expect(await handoffRows(server.db)).toEqual([]);
  });

  it('asks for the gender only when the clinic needs it', async () => {
    await inWindow();
    await server.db.query(`update check_in_settings set ask_gender = true`);
    expect((await status()).showGenderSelection).toBe(true);
    expect((await liam.post(`${base}/prepare`, validForm(booked))).statusCode).toBe(400);
    expect((await liam.post(`${base}/prepare`, validForm(booked, { gender: 'FEMALE' }))).statusCode).toBe(202);
  });

  it('hands the form and then the check-in to the RIS, signed, and ends checked in', async () => {
    await inWindow();
    const prepared = await liam.post(`${base}/prepare`, validForm(booked));
    expect(prepared.statusCode, prepared.body).toBe(202);
    expect(prepared.json()).toMatchObject({ state: 'PREPARING', checkInPrepared: true, checkInPreparedSent: false });
    // Too soon: the form has not reached the clinic yet.
    expect((await liam.post(base)).json()).toMatchObject({ code: 'conflict' });

    expect(await worker().runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [form] = ris.received;
    expect(form?.signatureValid).toBe(true);
    expect(form?.headers['idempotency-key']).toBe(`prepare_check_in-${booked.appointmentId}`);
    expect(form?.body).toMatchObject({
      event: 'check_in.prepare',
      channel: 'DIGITAL',
      appointment: { id: booked.appointmentId },
      patient: { lastName: expect.any(String), dateOfBirth: LIAM.dateOfBirth, medicareNumber: '2123456701', medicareReference: '2' },
      referral: { date: '2026-01-15' },
      // Liam's demo booking was not made with the booking form's details.
      bookingDetails: null,
    });
    expect(await status()).toMatchObject({ state: 'PREPARED', checkInPreparedSent: true });

    const checkedIn = await liam.post(base);
    expect(checkedIn.statusCode, checkedIn.body).toBe(202);
    expect(checkedIn.json()).toMatchObject({ state: 'CHECKING_IN' });
    await worker().runOnce();
    expect(ris.received[1]?.body).toMatchObject({ event: 'check_in.complete', appointment: { id: booked.appointmentId } });
    expect(ris.received[1]?.signatureValid).toBe(true);
    expect(await status()).toMatchObject({ state: 'CHECKED_IN', checkInSent: true, checkInSuccess: true });
    const [appointment] = await server.db.query<{ status: string }>(`select status from appointment where id = $1::uuid`, [
      booked.appointmentId,
    ]);
    expect(appointment?.status).toBe('CHECKED_IN');
  });

  it("carries the booking form's details (insurance, ethnicity, referring practice) in both hand-offs", async () => {
    await server.db.query(`delete from booking_form_details where booking_key = $1`, [LIAM.bookingKey]);
    await server.db.query(
      `insert into booking_form_details (booking_key, owner, insurance_code, insurance_kind, insurance_label, insurance_member_number,
         insurance_fund_name, ethnicity_code, ethnicity_label, referring_practice_name, referring_practice_suburb, created_at)
       values ($1, 'APPOINTMENT', 'PRIVATE', 'PRIVATE', 'Private health fund', '1234 5678', 'Bupa', 'BOTH',
         'Yes, both Aboriginal and Torres Strait Islander', 'Harbour Medical Centre', 'Parramatta', now())`,
      [LIAM.bookingKey],
    );
    try {
      await inWindow();
      expect((await liam.post(`${base}/prepare`, validForm(booked))).statusCode).toBe(202);
      await worker().runOnce();
      expect((await liam.post(base)).statusCode).toBe(202);
      await worker().runOnce();
      const bookingDetails = {
        insurance: { code: 'PRIVATE', kind: 'PRIVATE', label: 'Private health fund', memberNumber: '1234 5678', fundName: 'Bupa' },
        ethnicity: { code: 'BOTH', label: 'Yes, both Aboriginal and Torres Strait Islander' },
        referringPractice: { name: 'Harbour Medical Centre', suburb: 'Parramatta' },
      };
      expect(ris.received.map((message) => message.body)).toMatchObject([
        { event: 'check_in.prepare', bookingDetails },
        { event: 'check_in.complete', bookingDetails },
      ]);
    } finally {
      await server.db.query(`delete from booking_form_details where booking_key = $1`, [LIAM.bookingKey]);
    }
  });

  it('creates one hand-off for 20 check-ins of one appointment sent at once', async () => {
    await inWindow();
    const answers = await Promise.all(Array.from({ length: 20 }, () => liam.post(`${base}/prepare`, validForm(booked))));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 20 }, () => 202));
    expect(await handoffRows(server.db)).toHaveLength(1);
    expect(await server.db.query('select appointment_id from check_in')).toHaveLength(1);
  });

  it('retries after a 503 and after a timeout, then delivers', async () => {
    await inWindow();
    ris.plan.push(503, 'hang');
    await liam.post(`${base}/prepare`, validForm(booked));
    expect(await worker().runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(await handoffRows(server.db)).toEqual([{ kind: 'prepare_check_in', status: 'queued', attempts: 1, last_error: 'http_503' }]);
    expect((await status()).state).toBe('PREPARING');

    server.clock.advance(2_000);
    expect(await worker().runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect((await handoffRows(server.db))[0]).toMatchObject({ attempts: 2, last_error: 'timeout' });

    server.clock.advance(4_000);
    expect(await worker().runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(ris.received.map((received) => received.headers['idempotency-key'])).toEqual(
      Array.from({ length: 3 }, () => `prepare_check_in-${booked.appointmentId}`),
    );
    expect((await status()).state).toBe('PREPARED');
  });

  it('ends in the error state when the RIS refuses the hand-off, and does not start again', async () => {
    await inWindow();
    ris.plan.push(422);
    await liam.post(`${base}/prepare`, validForm(booked));
    expect(await worker().runOnce()).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(await status()).toMatchObject({ state: 'FAILED', checkInSuccess: false });
    expect((await liam.post(base)).json()).toMatchObject({ state: 'FAILED' });
    expect((await liam.post(`${base}/prepare`, validForm(booked))).json()).toMatchObject({ state: 'FAILED' });
    expect(await handoffRows(server.db)).toHaveLength(1);
  });

  it('in simple mode checks in at once, without the form', async () => {
    await inWindow();
    await server.db.query(`update check_in_settings set simple_mode = true`);
    expect((await status()).simpleMode).toBe(true);
    expect((await liam.post(`${base}/prepare`, validForm(booked))).statusCode).toBe(409);
    expect((await liam.post(base)).json()).toMatchObject({ state: 'CHECKING_IN' });
    await worker().runOnce();
    expect((await status()).state).toBe('CHECKED_IN');
    expect((await handoffRows(server.db)).map((row) => row.kind)).toEqual(['check_in']);
  });

  it('is off when the provider or the exam turns it off', async () => {
    await inWindow();
    await server.db.query(`update exam set check_in_enabled = false where id = $1::uuid`, [booked.examId]);
    expect(await status()).toMatchObject({ enabled: false, readiness: { ready: false } });
    expect((await liam.post(`${base}/prepare`, validForm(booked))).json()).toMatchObject({ code: 'check_in_not_ready' });
  });

  it("answers 404 for an appointment of another booking, with this booking's session", async () => {
    const [other] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key <> $1 limit 1`, [
      LIAM.bookingKey,
    ]);
    const response = await liam.get(`/api/secured/appointments/${LIAM.bookingKey}/check-in/${other?.id ?? ''}`);
    expect(response.statusCode).toBe(404);
  });
});
