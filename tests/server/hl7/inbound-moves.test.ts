import { beforeAll, describe, expect, it } from 'vitest';
import { book, patient, sydney } from '../modules/booking/booking-test-kit';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';
import { freePort } from './helpers/simple-hl7-peer';
import { addSegment, risMessage, sendFromRis } from './helpers/ris-sender';

// The RIS moving an appointment (SIU^S13, or S14 with a new start), sent by node-hl7-client over
// MLLP: the booking goes to the new time at its clinic under the booking's own rules, keeping its
// appointment ids (the RIS knows them), and the patient is mailed the new time. A time that is
// taken or not offered is refused (AE) and the appointment keeps its time; the same move again
// changes nothing.

describe.each(backends())('the RIS moving an appointment on %s', (backend) => {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
  });
  const server = useTestApp({ backend, env: () => ({ HL7_LISTEN_ADDRESS: `127.0.0.1:${port}`, HL7_RIS_ADDRESS: '127.0.0.1:9' }) });
  let sequence = 0;
  const controlId = () => `M${Date.now().toString(36)}${(sequence += 1)}`;

  const bookAt = async (time: string, email: string) => {
    const response = await book(server.app, {
      exams: ['ct-chest'],
      clinicSlug: 'newcastle',
      startsAt: sydney('2026-03-18', time),
      patient: patient({ email }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1`, [
      response.json<{ bookingKey: string }>().bookingKey,
    ]);
    return row?.id ?? '';
  };
  const startOf = async (id: string) =>
    (
      await server.db.query<{ starts: string; status: string }>(
        `select to_char(lower(during) at time zone 'Australia/Sydney', 'HH24:MI') as starts, status from appointment where id = $1::uuid`,
        [id],
      )
    )[0];
  const mails = async (email: string) =>
    (await server.db.query<{ n: number }>(`select count(*)::int as n from outbox_mail where recipient = $1`, [email]))[0]?.n ?? 0;

  /** An SIU^S13 (or S14) moving the appointment to a local time on 2026-03-18 (AIS-4 without offset: the clinic's zone). */
  const siuMove = (appointmentId: string, time: string, event: 'S13' | 'S14' = 'S13', id = controlId()) => {
    const message = risMessage({ type: 'SIU', event, structure: 'SIU_S12', controlId: id });
    addSegment(message, 'SCH', { 1: `${appointmentId}^RADIOLOGY-PORTAL`, 6: 'SCANNER^Scanner maintenance^L', 25: 'Booked' });
    addSegment(message, 'PID', { 1: '1', 5: 'PATIENT^TEST' });
    addSegment(message, 'RGS', { 1: '1', 2: 'U' });
    addSegment(message, 'AIS', { 1: '1', 2: 'U', 3: 'CTCHEST^CT Chest^L', 4: `20260318${time.replace(':', '')}00` });
    return message;
  };

  it('moves the booking to the new time, keeping its id, mails the patient, and tells nobody twice', async () => {
    const email = `move-${backend}@example.com`;
    const id = await bookAt('09:00', email);
    const mailsBefore = await mails(email);
    const messageId = controlId();
    const ack = await sendFromRis(port, siuMove(id, '14:00', 'S13', messageId));
    expect(ack, ack.raw).toMatchObject({ code: 'AA', about: messageId });
    expect(await startOf(id)).toEqual({ starts: '14:00', status: 'BOOKED' });
    expect(await mails(email)).toBe(mailsBefore + 1);
    const [change] = await server.db.query<{ action: string; note: string; actor: string }>(
      `select action, note, actor from appointment_change where booking_key = (select booking_key from appointment where id = $1::uuid)
        order by id desc limit 1`,
      [id],
    );
    expect(change).toEqual({ action: 'RESCHEDULE', note: 'Scanner maintenance', actor: 'staff' });
    // Nothing goes back to the RIS about a move it made.
    const echoed = await server.db.query(`select event from hl7_outbound where appointment_id = $1::uuid and event <> 'SIU_S12'`, [id]);
    expect(echoed).toEqual([]);

    // The same message again, and an S14 to the time it now has: nothing more.
    expect((await sendFromRis(port, siuMove(id, '14:00', 'S13', messageId))).code).toBe('AA');
    expect(await sendFromRis(port, siuMove(id, '14:00', 'S14'))).toMatchObject({ code: 'AA', text: expect.stringContaining('Already') });
    expect(await mails(email)).toBe(mailsBefore + 1);

    // The old time is free again: another booking takes 09:00.
    await bookAt('09:00', `other-${backend}@example.com`);
  });

  it("answers the patient's request to reschedule: the moved booking is booked again", async () => {
    const id = await bookAt('10:00', `requested-${backend}@example.com`);
    // The state a patient's "Ask the clinic to reschedule" leaves (docs/rules/self-service.md).
    await server.db.query(`update appointment set status = 'REQUEST_RESCHEDULE' where id = $1::uuid`, [id]);
    expect((await sendFromRis(port, siuMove(id, '15:00'))).code).toBe('AA');
    expect(await startOf(id)).toEqual({ starts: '15:00', status: 'BOOKED' });
    const [change] = await server.db.query<{ from_status: string; to_status: string }>(
      `select from_status, to_status from appointment_change where booking_key = (select booking_key from appointment where id = $1::uuid)
        order by id desc limit 1`,
      [id],
    );
    expect(change).toEqual({ from_status: 'REQUEST_RESCHEDULE', to_status: 'BOOKED' });
  });

  it('refuses a time that is taken or not offered, and a cancelled appointment, and the appointment keeps its time', async () => {
    const id = await bookAt('10:00', `keep-${backend}@example.com`);
    // Fill 15:00 on every resource that could take it, then ask for 15:00.
    for (let booked = 0; booked < 10; booked += 1) {
      const response = await book(server.app, {
        exams: ['ct-chest'],
        clinicSlug: 'newcastle',
        startsAt: sydney('2026-03-18', '15:00'),
        patient: patient({ email: `fill-${booked}-${backend}@example.com` }),
      });
      if (response.statusCode === 409) break;
      expect(response.statusCode, response.body).toBe(201);
    }
    const taken = await sendFromRis(port, siuMove(id, '15:00'));
    expect(taken, taken.raw).toMatchObject({ code: 'AE', errorCode: '207', text: expect.stringContaining('not free') });
    const notOffered = await sendFromRis(port, siuMove(id, '03:00'));
    expect(notOffered).toMatchObject({ code: 'AE', errorCode: '102', text: expect.stringContaining('not offered') });
    const unreadable = siuMove(id, '10:00');
    unreadable.set('AIS.4', 'tomorrow');
    expect(await sendFromRis(port, unreadable)).toMatchObject({ code: 'AE', errorCode: '102', location: expect.stringContaining('AIS') });
    expect(await startOf(id)).toEqual({ starts: '10:00', status: 'BOOKED' });

    await server.app.cancelByProvider(id, { actor: 'test', note: null });
    expect(await sendFromRis(port, siuMove(id, '16:00'))).toMatchObject({
      code: 'AE',
      errorCode: '207',
      text: expect.stringContaining('no longer booked'),
    });
  });
});
