import { beforeAll, describe, expect, it } from 'vitest';
import { createHl7Worker } from '../../../src-server/platform/hl7/hl7-worker';
// app.cancelByProvider's declaration.
import type {} from '../../../src-server/modules/appointments/provider-cancel';
import { book, patient, sydney } from '../modules/booking/booking-test-kit';
import { useTestApp } from '../helpers/test-app';
import { backends } from '../helpers/database';
import { freePort, startRis, type AckMode, type ReceivedMessage } from './helpers/simple-hl7-peer';
import { bookThrough, reschedule, signIn } from '../modules/appointments/self-service-kit';
import { slotsOn } from '../modules/booking/booking-test-kit';
import { setOtpRequired } from '../modules/patient-access/sign-in-kit';

// Bookings and cancellations reach a RIS written by others (simple-hl7, in its own process) as
// SIU^S12 and SIU^S15 through the durable queue: queued in the change's own transaction, sent in
// order per appointment, retried through a RIS that is down, answers AE or says nothing, never
// retried after AR, and never sent again once acknowledged.

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.each(backends())('on %s', (backend) => {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
  });
  const server = useTestApp({
    backend,
    env: () => ({ HL7_RIS_ADDRESS: `127.0.0.1:${port}`, HL7_RIS_APPLICATION: 'RIS', HL7_SENDING_FACILITY: 'Demo Radiology' }),
  });
  // The reschedule is the patient's, signed in with the booking's date of birth alone.
  beforeAll(() => setOtpRequired(server.db, false));
  const worker = () =>
    createHl7Worker({
      db: server.db,
      destination: { host: '127.0.0.1', port, ackTimeoutMs: 400, connectTimeoutMs: 400 },
      clock: server.clock,
      logger: silent,
      maxAttempts: 5,
    });
  /** Runs the worker until nothing more is due now. */
  const drain = async () => {
    const sender = worker();
    for (let pass = 0; pass < 5; pass += 1) await sender.runOnce();
  };
  const rows = (appointmentId: string) =>
    server.db.query<{ event: string; status: string; attempts: number; last_error: string | null; control_id: string }>(
      `select event, status, attempts, last_error, control_id from hl7_outbound where appointment_id = $1::uuid order by id`,
      [appointmentId],
    );
  const bookOne = async (time: string) => {
    const response = await book(server.app, {
      exams: ['ct-chest'],
      clinicSlug: 'newcastle',
      startsAt: sydney('2026-03-18', time),
      patient: patient(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1`, [
      response.json<{ bookingKey: string }>().bookingKey,
    ]);
    return row?.id ?? '';
  };
  const restartRis = async (mode: AckMode, received: ReceivedMessage[]) => startRis(mode, port, received);

  it('queues SIU^S12 with the booking and SIU^S15 with its cancellation; sends them in order through a RIS that is down, then says AE, then AA', async () => {
    const appointmentId = await bookOne('09:00');
    await server.app.cancelByProvider(appointmentId, { actor: 'fhir-client:test', note: 'Machine out of service' });
    expect((await rows(appointmentId)).map((row) => [row.event, row.status])).toEqual([
      ['SIU_S12', 'queued'],
      ['SIU_S15', 'queued'],
    ]);

    // The RIS is down: the booking's message waits, and the cancellation waits behind it.
    await drain();
    expect((await rows(appointmentId)).map((row) => [row.event, row.status, row.attempts])).toEqual([
      ['SIU_S12', 'queued', 1],
      ['SIU_S15', 'queued', 0],
    ]);

    const received: ReceivedMessage[] = [];
    const erring = await restartRis('AE', received);
    server.clock.advance(60_000);
    await drain();
    expect(received.map((message) => message.type)).toEqual(['SIU^S12']);
    await erring.stop();

    await restartRis('AA', received);
    server.clock.advance(60_000);
    await drain();
    server.clock.advance(60_000);
    await drain();
    const [booked, cancelled] = await rows(appointmentId);
    // The retry is the same message (its control id too): the RIS can tell a repeat.
    expect(received.map((message) => [message.type, message.controlId])).toEqual([
      ['SIU^S12', booked?.control_id],
      ['SIU^S12', booked?.control_id],
      ['SIU^S15', cancelled?.control_id],
    ]);
    expect([booked?.status, cancelled?.status]).toEqual(['sent', 'sent']);
    expect(received[2]?.parsed.get('SCH.6').toString()).toBe('Machine out of service');
    expect(received[2]?.parsed.get('SCH.1.1').toString()).toBe(appointmentId);
    // Acknowledged: never sent again.
    server.clock.advance(60 * 60_000);
    await drain();
    expect(received).toHaveLength(3);
  });

  it('tells the RIS of a reschedule as the old time cancelled and the new one booked, in that order', async () => {
    const booked = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-03-24', slot: 0 });
    const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-26'))[2]?.startsAt ?? '';
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const moved = await reschedule(signed, booked.bookingKey, { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target });
    expect(moved.statusCode, moved.body).toBe(200);
    // The moved row is kept as RESCHEDULED; the new time is a row of its own (both booked at the test clock's time).
    const [oldRow, newRow] = await server.db.query<{ id: string }>(
      `select id::text as id from appointment where booking_key = $1 order by (status = 'RESCHEDULED') desc, id`,
      [booked.bookingKey],
    );
    const received: ReceivedMessage[] = [];
    await restartRis('AA', received);
    await drain();
    const about = (id: string) =>
      received.filter((message) => message.parsed.get('SCH.1.1').toString() === id).map((message) => message.type);
    expect(about(oldRow?.id ?? '')).toEqual(['SIU^S12', 'SIU^S15']);
    expect(about(newRow?.id ?? '')).toEqual(['SIU^S12']);
    const cancelled = received.find((message) => message.type === 'SIU^S15');
    expect(cancelled?.parsed.get('SCH.6').toString()).toBe('Rescheduled by the patient');
    // The RIS heard of the old time's booking before its cancellation.
    expect(received.findIndex((message) => message.type === 'SIU^S15')).toBeGreaterThan(
      received.findIndex((message) => message.parsed.get('SCH.1.1').toString() === oldRow?.id),
    );
  });

  it('keeps a message the RIS refuses (AR) as failed without trying again, and retries one it never answered', async () => {
    const refusedId = await bookOne('10:00');
    const received: ReceivedMessage[] = [];
    const refusing = await restartRis('AR', received);
    await drain();
    server.clock.advance(60 * 60_000);
    await drain();
    expect(received.filter((message) => message.parsed.get('SCH.1.1').toString() === refusedId)).toHaveLength(1);
    expect(await rows(refusedId)).toMatchObject([{ event: 'SIU_S12', status: 'failed', attempts: 1, last_error: 'ack_AR' }]);
    await refusing.stop();

    const unansweredId = await bookOne('11:00');
    const silentRis = await restartRis('silent', received);
    await drain();
    expect(await rows(unansweredId)).toMatchObject([{ status: 'queued', attempts: 1, last_error: 'ack_timeout' }]);
    await silentRis.stop();
    await restartRis('AA', received);
    server.clock.advance(60_000);
    await drain();
    expect(await rows(unansweredId)).toMatchObject([{ status: 'sent', attempts: 2 }]);
    expect(received.filter((message) => message.parsed.get('SCH.1.1').toString() === unansweredId)).toHaveLength(2);
  });
});
