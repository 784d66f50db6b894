import { describe, expect, it } from 'vitest';
import { sendHl7, Hl7SendError } from '../../../src-server/platform/hl7/mllp-sender';
import { adtA04Message, siuMessage, type AppointmentFacts } from '../../../src-server/platform/hl7/scheduling-messages';
import { freePort, startRis, type ReceivedMessage } from './helpers/simple-hl7-peer';

// The portal's HL7 messages sent over MLLP to a RIS written by others (simple-hl7 in its own
// process), read back by a second independent parser (node-hl7-client): the fields arrive as
// meant, awkward characters included, and each kind of acknowledgement is told apart.

const FACTS: AppointmentFacts = {
  appointmentId: '7f1c2a4e-0000-4000-8000-000000000001',
  start: new Date('2026-12-03T23:30:00Z'),
  end: new Date('2026-12-04T00:00:00Z'),
  exam: { code: 'MRKNEE', name: 'MRI knee' },
  clinic: { slug: 'chatswood', name: 'Chatswood Imaging', timeZone: 'Australia/Sydney' },
  patient: {
    id: '5b0e9d4c-0000-4000-8000-000000000002',
    title: 'Ms',
    firstName: 'Ann-Marie',
    // Every HL7 delimiter a form lets through: each must arrive as typed.
    lastName: "O'Brien & Sons|^~\\x",
    dateOfBirth: '1951-07-04',
    email: 'ann@example.org',
    phone: '0491570156',
    postcode: '2067',
  },
  referrer: { providerNumber: '2426621B', firstName: 'Riley', lastName: 'Harbour' },
};

const header = (controlId: string) => ({
  controlId,
  at: new Date('2026-11-29T01:00:00Z'),
  sendingFacility: 'Demo Radiology',
  receivingApplication: 'RIS',
  receivingFacility: 'Demo Radiology',
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('HL7 over MLLP to simple-hl7', () => {
  it('delivers SIU^S12 on AA; the RIS reads every field as it was given', async () => {
    const ris = await startRis('AA');
    await sendHl7({ host: '127.0.0.1', port: ris.port }, siuMessage('S12', FACTS, header('ctl-s12-1')));
    expect(ris.received).toHaveLength(1);
    const [message] = ris.received as [ReceivedMessage];
    expect(message.type).toBe('SIU^S12');
    const read = (path: string) => message.parsed.get(path).toString();
    expect(read('MSH.10')).toBe('ctl-s12-1');
    expect(read('MSH.12')).toBe('2.5.1');
    expect(read('SCH.1.1')).toBe(FACTS.appointmentId);
    expect(read('SCH.25')).toBe('Booked');
    expect(read('PID.3.1')).toBe(FACTS.patient.id);
    expect(read('PID.5.1')).toBe(FACTS.patient.lastName);
    expect(read('PID.5.2')).toBe('Ann-Marie');
    expect(read('PID.7')).toBe('19510704');
    expect(read('PV1.8.1')).toBe('2426621B');
    // The clinic's local time with its offset (Sydney is UTC+11 in December).
    expect(read('AIS.4')).toBe('20261204103000+1100');
    expect(read('SCH.11.4')).toBe('20261204103000+1100');
  });

  it('says Pending in SCH-25 for a time the clinic has yet to confirm (a booking request, a screening held for review)', async () => {
    const ris = await startRis('AA');
    const destination = { host: '127.0.0.1', port: ris.port };
    await sendHl7(destination, siuMessage('S12', { ...FACTS, status: 'PENDING' }, header('ctl-pending')));
    await sendHl7(destination, siuMessage('S12', { ...FACTS, status: 'ON_HOLD' }, header('ctl-held')));
    await sendHl7(destination, siuMessage('S14', { ...FACTS, status: 'BOOKED' }, header('ctl-approved')));
    expect(ris.received.map((message) => `${message.type} ${message.parsed.get('SCH.25').toString()}`)).toEqual([
      'SIU^S12 Pending',
      'SIU^S12 Pending',
      'SIU^S14 Booked',
    ]);
  });

  it('sends SIU^S15 and ADT^A04 with their own event fields', async () => {
    const ris = await startRis('AA');
    const destination = { host: '127.0.0.1', port: ris.port };
    await sendHl7(destination, siuMessage('S15', { ...FACTS, reason: 'Machine out of service' }, header('ctl-s15')));
    await sendHl7(destination, adtA04Message(FACTS, new Date('2026-12-03T23:20:00Z'), header('ctl-a04')));
    const [cancelled, checkedIn] = ris.received;
    expect(cancelled?.type).toBe('SIU^S15');
    expect(cancelled?.parsed.get('SCH.25').toString()).toBe('Cancelled');
    expect(cancelled?.parsed.get('SCH.6').toString()).toBe('Machine out of service');
    expect(cancelled?.parsed.get('RGS.2').toString()).toBe('D');
    expect(checkedIn?.type).toBe('ADT^A04');
    expect(checkedIn?.parsed.get('EVN.1').toString()).toBe('A04');
    expect(checkedIn?.parsed.get('PV1.19.1').toString()).toBe(FACTS.appointmentId);
    expect(checkedIn?.parsed.get('PV1.44').toString()).toBe('20261204102000+1100');
  });

  it('tells an application error (AE: try again) from a refusal (AR: never) and from silence (a timeout)', async () => {
    for (const [mode, expected] of [
      ['AE', { code: 'ack_AE', options: { permanent: false, transport: false } }],
      ['AR', { code: 'ack_AR', options: { permanent: true, transport: false } }],
      ['silent', { code: 'ack_timeout', options: { permanent: false, transport: true } }],
    ] as const) {
      const ris = await startRis(mode);
      const error = await failure(
        sendHl7({ host: '127.0.0.1', port: ris.port, ackTimeoutMs: 400 }, siuMessage('S12', FACTS, header(`ctl-${mode}`))),
      );
      expect(error, mode).toBeInstanceOf(Hl7SendError);
      expect({ code: (error as Hl7SendError).code, options: (error as Hl7SendError).options }, mode).toEqual(expected);
      expect(ris.received, `${mode}: the RIS had the message`).toHaveLength(1);
      await ris.stop();
    }
  });

  it('fails as a transport failure while the RIS is down, and delivers once it listens again', async () => {
    const port = await freePort();
    const message = siuMessage('S12', FACTS, header('ctl-restart'));
    const down = await failure(sendHl7({ host: '127.0.0.1', port, connectTimeoutMs: 500 }, message));
    expect(down).toMatchObject({ code: 'ECONNREFUSED', options: { transport: true, permanent: false } });
    const ris = await startRis('AA', port);
    await sendHl7({ host: '127.0.0.1', port }, message);
    expect(ris.received.map((received) => received.controlId)).toEqual(['ctl-restart']);
  });
});
