import type { Queryable } from '../db/connection';
import { components, hl7Escape, hl7Timestamp, segment } from '../platform/hl7/hl7-text';
import { sendHl7, Hl7SendError } from '../platform/hl7/mllp-sender';
import { createHl7OutboundRepository } from '../platform/hl7/outbound-repository';
import { PORTAL_AUTHORITY, SENDING_APPLICATION } from '../platform/hl7/scheduling-messages';
import { DEMO_HL7_RIS_APPLICATION } from './hl7-receiver';

/**
 * The demo RIS reporting an appointment (docs/integration/hl7.md#the-demo-ris): an ORU^R01 with
 * a short report as text, sent over MLLP to the portal's own listener, as a provider's RIS sends
 * one when the radiologist signs. The portal renders its PDF and the patient can read it (the
 * demo's release delay is none). Started from the development outbox page, never by itself.
 */

export interface DemoReportOutcome {
  /** AA, or the ACK's or connection's failure code (ack_AE, ECONNREFUSED, …). */
  outcome: string;
  accessionNumber: string;
}

/** A demo accession number for an appointment: stable, so sending again is the same report. */
export function demoAccessionNumber(appointmentId: string): string {
  return `DEMO-HL7-${appointmentId.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}

const REPORT = [
  'CLINICAL HISTORY: As per referral.',
  '',
  'FINDINGS: The study is of diagnostic quality. No acute abnormality is seen.',
  '',
  'IMPRESSION: Normal study.',
];

export async function sendDemoReport(
  db: Queryable,
  to: { host: string; port: number },
  appointmentId: string,
  now: Date,
): Promise<DemoReportOutcome | null> {
  const [facts] = await createHl7OutboundRepository(db).facts([appointmentId]);
  if (facts === undefined) return null;
  const zone = facts.clinic.timeZone;
  const accessionNumber = demoAccessionNumber(appointmentId);
  const referrer = facts.referrer ?? { providerNumber: '', firstName: 'Referring', lastName: 'Doctor' };
  const text = [
    segment(
      'MSH|^~\\&',
      DEMO_HL7_RIS_APPLICATION,
      hl7Escape(facts.clinic.name),
      SENDING_APPLICATION,
      '',
      hl7Timestamp(now, zone),
      '',
      'ORU^R01^ORU_R01',
      `D${now.getTime().toString(36).toUpperCase()}`,
      'P',
      '2.5.1',
    ),
    segment(
      'PID',
      '1',
      '',
      components(facts.patient.id, '', '', PORTAL_AUTHORITY, 'PI'),
      '',
      components(facts.patient.lastName, facts.patient.firstName),
    ),
    segment('ORC', 'RE', components(appointmentId, PORTAL_AUTHORITY), components(accessionNumber, DEMO_HL7_RIS_APPLICATION)),
    segment(
      'OBR',
      '1',
      components(appointmentId, PORTAL_AUTHORITY),
      components(accessionNumber, DEMO_HL7_RIS_APPLICATION),
      components(facts.exam.code, facts.exam.name, 'L'),
      '',
      '',
      hl7Timestamp(facts.start, zone),
      ...Array<string>(8).fill(''),
      components(referrer.providerNumber, referrer.lastName, referrer.firstName, '', '', 'Dr'),
      ...Array<string>(5).fill(''),
      hl7Timestamp(now, zone),
      '',
      '',
      'F',
      ...Array<string>(6).fill(''),
      // OBR-32, the principal result interpreter: a CNN in one component (id & family & given & … & prefix).
      '&Reporter&Demo&&&&Dr',
    ),
    segment('OBX', '1', 'FT', components('REPORT', 'Report', 'L'), '', REPORT.map(hl7Escape).join('\\.br\\'), '', '', '', '', '', 'F'),
  ].join('\r');
  try {
    await sendHl7(to, text);
    return { outcome: 'AA', accessionNumber };
  } catch (error) {
    if (error instanceof Hl7SendError) return { outcome: error.code, accessionNumber };
    throw error;
  }
}
