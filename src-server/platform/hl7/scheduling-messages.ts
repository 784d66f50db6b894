import { components, hl7Date, hl7Escape, hl7Timestamp, segment } from './hl7-text';

/**
 * The HL7 v2.5.1 messages the portal sends its provider's RIS (docs/integration/hl7.md has the
 * field-by-field mapping): SIU^S12 when an appointment is booked, SIU^S14 when it is changed (a new
 * time), SIU^S15 when it is cancelled, ADT^A05 when its patient's check-in form reaches the clinic
 * and ADT^A04 when the patient checks in. Each is built from the facts of one appointment; every
 * value is escaped (hl7-text.ts).
 */

export const SENDING_APPLICATION = 'RADIOLOGY-PORTAL';
/** The assigning authority of the portal's own ids (patients, appointments). */
export const PORTAL_AUTHORITY = 'RADIOLOGY-PORTAL';
export const HL7_VERSION = '2.5.1';

export type SchedulingEvent = 'S12' | 'S14' | 'S15';

export interface AppointmentFacts {
  appointmentId: string;
  start: Date;
  end: Date;
  exam: { code: string; name: string };
  clinic: { slug: string; name: string; timeZone: string };
  patient: {
    id: string;
    title: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    email: string | null;
    phone: string | null;
    postcode: string | null;
    /** From the check-in form, once given: ten digits and the person's number on the card. */
    medicare?: { number: string; reference: string } | null;
    gender?: 'FEMALE' | 'MALE' | 'OTHER' | null;
  };
  referrer: { providerNumber: string; firstName: string; lastName: string } | null;
  /** Why it was cancelled or changed, when said. */
  reason?: string | null;
  /** The appointment's status as the message is queued: a time the clinic has yet to confirm is sent as Pending. */
  status?: string;
}

export interface MessageHeader {
  /** MSH-10: unique per message; the ACK's MSA-2 names it. */
  controlId: string;
  at: Date;
  /** MSH-4: the provider (its name). */
  sendingFacility: string;
  /** MSH-5 and MSH-6: the RIS as the provider configured it. */
  receivingApplication: string;
  receivingFacility: string;
}

function msh(header: MessageHeader, type: string, timeZone: string): string {
  return segment(
    'MSH|^~\\&',
    hl7Escape(SENDING_APPLICATION),
    hl7Escape(header.sendingFacility),
    hl7Escape(header.receivingApplication),
    hl7Escape(header.receivingFacility),
    hl7Timestamp(header.at, timeZone),
    '',
    type,
    hl7Escape(header.controlId),
    'P',
    HL7_VERSION,
  );
}

/** PID-8, HL7 table 0001. */
const SEX = { FEMALE: 'F', MALE: 'M', OTHER: 'O' } as const;
/** The Medicare number's assigning authority and id type in Australian HL7 v2 (AS 4700.1). */
const MEDICARE_AUTHORITY = 'AUSHIC';

function pid(facts: AppointmentFacts): string {
  const { patient } = facts;
  const ids = [
    components(patient.id, '', '', PORTAL_AUTHORITY, 'PI'),
    // The card's number with the person's number on it: 11 characters.
    ...(patient.medicare ? [components(`${patient.medicare.number}${patient.medicare.reference}`, '', '', MEDICARE_AUTHORITY, 'MC')] : []),
  ].join('~');
  const telecom = [
    ...(patient.phone ? [components(patient.phone, 'PRN', 'PH')] : []),
    ...(patient.email ? [components('', 'NET', 'Internet', patient.email)] : []),
  ].join('~');
  return segment(
    'PID',
    '1',
    '',
    ids,
    '',
    components(patient.lastName, patient.firstName, '', '', patient.title),
    '',
    hl7Date(patient.dateOfBirth),
    patient.gender ? SEX[patient.gender] : '',
    '',
    '',
    patient.postcode ? components('', '', '', '', patient.postcode, 'AUS') : '',
    '',
    telecom,
  );
}

/** PV1-3 the clinic, PV1-8 the referring doctor, PV1-19 the visit: the appointment; PV1-44 the admission. */
function pv1(facts: AppointmentFacts, admittedAt?: Date): string {
  const referrer =
    facts.referrer === null ? '' : components(facts.referrer.providerNumber, facts.referrer.lastName, facts.referrer.firstName);
  const fields = ['1', 'O', components(facts.clinic.slug, '', '', facts.clinic.name), '', '', '', '', referrer];
  while (fields.length < 18) fields.push('');
  fields.push(components(facts.appointmentId, '', '', PORTAL_AUTHORITY, 'VN'));
  if (admittedAt !== undefined) {
    while (fields.length < 43) fields.push('');
    fields.push(hl7Timestamp(admittedAt, facts.clinic.timeZone));
  }
  return segment('PV1', ...fields);
}

/**
 * SCH-25, HL7 table 0278: a cancellation is Cancelled; a time held but not yet firm (a booking
 * request the clinic confirms, a screening waiting for a radiographer's review) is Pending, so
 * the RIS does not treat it as booked; anything else is Booked.
 */
const PENDING_STATUSES: ReadonlySet<string> = new Set(['PENDING', 'ON_HOLD']);
function fillerStatus(event: SchedulingEvent, status: string | undefined): string {
  if (event === 'S15') return 'Cancelled';
  return status !== undefined && PENDING_STATUSES.has(status) ? 'Pending' : 'Booked';
}
const SEGMENT_ACTION: Record<SchedulingEvent, string> = { S12: 'A', S14: 'U', S15: 'D' };

/** SIU^S12 (booked), ^S14 (changed) or ^S15 (cancelled) for one appointment. */
export function siuMessage(event: SchedulingEvent, facts: AppointmentFacts, header: MessageHeader): string {
  const { timeZone } = facts.clinic;
  const minutes = Math.round((facts.end.getTime() - facts.start.getTime()) / 60_000);
  const start = hl7Timestamp(facts.start, timeZone);
  const end = hl7Timestamp(facts.end, timeZone);
  const exam = components(facts.exam.code, facts.exam.name, 'L');
  const sch = Array<string>(25).fill('');
  sch[0] = components(facts.appointmentId, PORTAL_AUTHORITY);
  sch[5] = event === 'S12' ? '' : hl7Escape(facts.reason ?? '');
  sch[6] = exam;
  sch[8] = String(minutes);
  sch[9] = 'min';
  sch[10] = components('', '', `M${minutes}`, start, end);
  sch[24] = fillerStatus(event, facts.status);
  const action = SEGMENT_ACTION[event];
  return [
    msh(header, `SIU^${event}^SIU_S12`, timeZone),
    segment('SCH', ...sch),
    pid(facts),
    pv1(facts),
    segment('RGS', '1', action),
    segment('AIS', '1', action, exam, start, '', '', String(minutes), 'min'),
    segment('AIL', '1', action, components(facts.clinic.slug, '', '', facts.clinic.name), '', '', start, '', '', String(minutes), 'min'),
  ].join('\r');
}

export type AdtEvent = 'A04' | 'A05';

/** MSH-9: A04 shares A01's structure; A05 has its own. */
const ADT_TYPE: Record<AdtEvent, string> = { A04: 'ADT^A04^ADT_A01', A05: 'ADT^A05^ADT_A05' };

/**
 * ADT^A04 (register a patient: the patient has checked in; PV1-44 the check-in) or ADT^A05
 * (pre-admit: the check-in form reached the clinic before the patient did; PV1-44 the expected
 * arrival, the appointment's start). EVN-2 is when the event happened.
 */
export function adtMessage(event: AdtEvent, facts: AppointmentFacts, at: Date, header: MessageHeader): string {
  const { timeZone } = facts.clinic;
  return [
    msh(header, ADT_TYPE[event], timeZone),
    segment('EVN', event, hl7Timestamp(at, timeZone)),
    pid(facts),
    pv1(facts, event === 'A04' ? at : facts.start),
  ].join('\r');
}

/** ADT^A04 (register a patient: the patient has checked in for the appointment). */
export function adtA04Message(facts: AppointmentFacts, checkedInAt: Date, header: MessageHeader): string {
  return adtMessage('A04', facts, checkedInAt, header);
}

/** ADT^A05 (pre-admit: the patient's check-in form, before arrival). */
export function adtA05Message(facts: AppointmentFacts, preparedAt: Date, header: MessageHeader): string {
  return adtMessage('A05', facts, preparedAt, header);
}
