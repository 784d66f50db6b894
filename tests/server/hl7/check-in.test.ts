import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CheckInStatusSchema, type CheckInStatus } from '@contract/api/check-in';
import { markCheckedIn } from '../../../src-server/modules/check-in/public';
import { createHl7RisSender, handoffControlId } from '../../../src-server/platform/ris/hl7-ris-sender';
import { createRisWorker } from '../../../src-server/platform/ris/ris-worker';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';
import { signIn, type Signed } from '../modules/appointments/self-service-kit';
import { handoffRows, LIAM, liamsAppointment, resetCheckIn, validForm, type Booked } from '../modules/check-in/check-in-kit';
import { setOtpRequired } from '../modules/patient-access/sign-in-kit';
import { freePort, startRis, type AckMode, type ReceivedMessage } from './helpers/simple-hl7-peer';

// Check-in hand-offs as HL7 v2 (RIS_CHECK_IN=hl7) through the check-in routes and the RIS worker
// as main.ts starts them, to a RIS written by others (simple-hl7, in its own process): the form as
// ADT^A05, the check-in as ADT^A04; CHECKED_IN only after AA; AE and a RIS that is down retried
// with the same control id; AR failed for good, and the patient sent to the desk.

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.each(backends())('check-in over HL7 on %s', (backend) => {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
  });
  const server = useTestApp({
    backend,
    env: () => ({ HL7_RIS_ADDRESS: `127.0.0.1:${port}`, RIS_CHECK_IN: 'hl7', HL7_SENDING_FACILITY: 'Demo Radiology' }),
  });
  let liam: Signed;
  let booked: Booked;
  let base: string;
  let received: ReceivedMessage[] = [];

  const status = async (): Promise<CheckInStatus> => CheckInStatusSchema.parse((await liam.get(base)).json());
  const worker = () =>
    createRisWorker({
      db: server.db,
      markCheckedIn,
      sender: createHl7RisSender({
        db: server.db,
        config: { receivingApplication: 'RIS', receivingFacility: '', sendingFacility: 'Demo Radiology' },
        destination: { host: '127.0.0.1', port, ackTimeoutMs: 400, connectTimeoutMs: 400 },
      }),
      clock: server.clock,
      logger: silent,
      maxAttempts: 5,
    });
  const ris = (mode: AckMode) => startRis(mode, port, received);
  const appointmentStatus = async () =>
    (await server.db.query<{ status: string }>(`select status from appointment where id = $1::uuid`, [booked.appointmentId]))[0]?.status;
  /** An hour before the start (check-in opens 120 minutes before), LIAM signed in afresh. */
  const inWindow = async () => {
    server.clock.set(new Date(booked.startsAt.getTime() - 60 * 60_000));
    liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
  };

  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    booked = await liamsAppointment(server.db);
    base = `/api/secured/appointments/${LIAM.bookingKey}/check-in/${booked.appointmentId}`;
  });
  beforeEach(async () => {
    await resetCheckIn(server.db, booked);
    received = [];
    await inWindow();
  });

  it('sends the form as ADT^A05 and the check-in as ADT^A04 with the patient, clinic, referrer and visit; checked in after AA', async () => {
    const [patient] = await server.db.query<{ id: string; first_name: string; last_name: string }>(
      `select p.id::text as id, p.first_name, p.last_name from patient p join appointment a on a.patient_id = p.id where a.id = $1::uuid`,
      [booked.appointmentId],
    );
    const [doctor] = await server.db.query<{ provider_number: string; last_name: string }>(
      `select provider_number, last_name from referring_doctor where id = $1::uuid`,
      [booked.doctorId],
    );
    await ris('AA');
    const preparedAt = server.clock.now();
    expect((await liam.post(`${base}/prepare`, validForm(booked, { referenceNumber: '2' }))).statusCode).toBe(202);
    expect(await worker().runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await status()).toMatchObject({ state: 'PREPARED', checkInPreparedSent: true });

    const [a05] = received;
    expect(a05?.type).toBe('ADT^A05');
    expect(a05?.controlId).toBe(handoffControlId(`prepare_check_in-${booked.appointmentId}`));
    const field = (message: ReceivedMessage | undefined, path: string) => message?.parsed.get(path).toString();
    expect(field(a05, 'MSH.9.3')).toBe('ADT_A05');
    expect(field(a05, 'MSH.4')).toBe('Demo Radiology');
    expect(field(a05, 'EVN.1')).toBe('A05');
    expect(field(a05, 'PID.3.1')).toBe(patient?.id);
    // The check-in form's Medicare number with the person's number on the card (AUSHIC, MC).
    expect(a05?.parsed.get('PID.3').get(1).toString()).toBe('21234567012');
    expect(field(a05, 'PID.5.1')).toBe(patient?.last_name);
    expect(field(a05, 'PID.5.2')).toBe(patient?.first_name);
    expect(field(a05, 'PID.7')).toBe(LIAM.dateOfBirth.replace(/-/g, ''));
    expect(field(a05, 'PV1.2')).toBe('O');
    // The referring doctor the patient chose on the form.
    expect(field(a05, 'PV1.8.1')).toBe(doctor?.provider_number);
    expect(field(a05, 'PV1.8.2')).toBe(doctor?.last_name);
    expect(field(a05, 'PV1.19.1')).toBe(booked.appointmentId);
    expect(field(a05, 'EVN.2')?.slice(0, 12)).toBe(sydneyMinute(preparedAt));

    server.clock.advance(60_000);
    const checkedInAt = server.clock.now();
    expect((await liam.post(base)).json()).toMatchObject({ state: 'CHECKING_IN' });
    // Not checked in before the RIS acknowledged.
    expect(await appointmentStatus()).not.toBe('CHECKED_IN');
    expect(await worker().runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const a04 = received[1];
    expect(a04?.type).toBe('ADT^A04');
    expect(a04?.controlId).toBe(handoffControlId(`check_in-${booked.appointmentId}`));
    expect(field(a04, 'MSH.9.3')).toBe('ADT_A01');
    expect(field(a04, 'PID.3.1')).toBe(patient?.id);
    expect(field(a04, 'PV1.19.1')).toBe(booked.appointmentId);
    expect(field(a04, 'PV1.44')?.slice(0, 12)).toBe(sydneyMinute(checkedInAt));
    expect(await appointmentStatus()).toBe('CHECKED_IN');
    expect(await status()).toMatchObject({ state: 'CHECKED_IN', checkInSent: true, checkInSuccess: true });
  });

  it('retries a check-in the RIS answers AE, or cannot be reached, with the same control id, and checks in after AA', async () => {
    await server.db.query(`update check_in_settings set simple_mode = true`);
    expect((await liam.post(base)).json()).toMatchObject({ state: 'CHECKING_IN' });
    // The RIS is down.
    expect(await worker().runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const erring = await ris('AE');
    server.clock.advance(60_000);
    expect(await worker().runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(await handoffRows(server.db)).toMatchObject([{ kind: 'check_in', status: 'queued', attempts: 2, last_error: 'ack_AE' }]);
    expect(await appointmentStatus()).not.toBe('CHECKED_IN');
    expect((await status()).state).toBe('CHECKING_IN');
    await erring.stop();

    await ris('AA');
    server.clock.advance(60_000);
    expect(await worker().runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(received.map((message) => message.type)).toEqual(['ADT^A04', 'ADT^A04']);
    expect(new Set(received.map((message) => message.controlId)).size).toBe(1);
    expect(await appointmentStatus()).toBe('CHECKED_IN');
    // Acknowledged: never sent again.
    server.clock.advance(60 * 60_000);
    await worker().runOnce();
    expect(received).toHaveLength(2);
  });

  it('keeps a hand-off the RIS refuses (AR) as failed, never sends it again, and sends the patient to the desk', async () => {
    await ris('AR');
    await liam.post(`${base}/prepare`, validForm(booked));
    expect(await worker().runOnce()).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(await handoffRows(server.db)).toMatchObject([{ kind: 'prepare_check_in', status: 'failed', attempts: 1, last_error: 'ack_AR' }]);
    expect(await status()).toMatchObject({ state: 'FAILED', checkInSuccess: false });
    expect((await liam.post(base)).json()).toMatchObject({ state: 'FAILED' });
    server.clock.advance(60 * 60_000);
    await worker().runOnce();
    expect(received.map((message) => message.type)).toEqual(['ADT^A05']);
    expect(await appointmentStatus()).not.toBe('CHECKED_IN');
  });
});

/** YYYYMMDDHHMM in Sydney, as HL7 timestamps of the demo clinics read. */
function sydneyMinute(instant: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-AU', {
      timeZone: 'Australia/Sydney',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}`;
}
