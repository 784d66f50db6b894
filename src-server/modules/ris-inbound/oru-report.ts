import type { Hl7Message, Hl7Segment } from '@medplum/core';
import { RESULT_MESSAGES } from '@contract/api/results';
import { componentText, hl7Unescape, parseHl7Timestamp, repetitionsText } from '../../platform/hl7/hl7-read';
import { appointmentIdAt, badField, missingField } from './refusal';

/**
 * What an ORU^R01 (a finalised report) says, read field by field (docs/integration/hl7.md#oru-r01):
 * OBR-2 (or ORC-2, or PV1-19) the portal's appointment id, OBR-3 (or OBR-18) the accession number,
 * OBR-16 (or PV1-8) the referring doctor, OBR-22 when it was reported, OBR-25 its status, OBR-32
 * the radiologist; OBX text lines (TX, FT, ST) the report, an OBX of type ED the report's PDF
 * (Base64); ZDS-1 the study's DICOM StudyInstanceUID.
 */

export interface OruReport {
  appointmentId: string;
  accessionNumber: string;
  /** F (final) or C (corrected); anything else is not a report for the patient yet. */
  status: string;
  reportText: string;
  pdfBase64: string | null;
  referrer: { name: string; providerNumber: string | null };
  radiologistName: string | null;
  /** OBR-22 (or OBR-7) as written; read in the clinic's zone once the appointment is known. */
  reportedAtText: string;
  studyInstanceUid: string | null;
}

const ACCESSION = /^[A-Za-z0-9._-]{1,64}$/;
const PROVIDER_NUMBER = /^[0-9]{6}[0-9A-HJ-NP-Y][A-HJKLTWXY]$/;
const STUDY_UID = /^[0-9]+(\.[0-9]+)*$/;
const TEXT_TYPES = new Set(['TX', 'FT', 'ST']);

/** The first non-empty of these fields' first component, with where it came from. */
function firstOf(candidates: Array<[Hl7Segment | undefined, number, string]>): { value: string; location: string } | null {
  for (const [segment, field, location] of candidates) {
    const value = componentText(segment, field);
    if (value !== '') return { value, location };
  }
  return null;
}

/** An XCN (id ^ family ^ given ^ middle ^ suffix ^ prefix) as the referrer. */
function personOf(segment: Hl7Segment | undefined, field: number): { name: string; providerNumber: string | null } | null {
  if (segment === undefined) return null;
  const part = (component: number) => componentText(segment, field, component);
  const name = [part(6), part(3), part(4), part(2)].filter(Boolean).join(' ');
  if (name === '') return null;
  const id = part(1).toUpperCase();
  return { name: name.slice(0, 200), providerNumber: PROVIDER_NUMBER.test(id) ? id : null };
}

/** OBR-32's name (a CNN in its first component: id & family & given & middle & suffix & prefix) as "prefix given middle family". */
function radiologistOf(obr: Hl7Segment): string | null {
  // @medplum/core counts subcomponents from 0.
  const sub = (index: number) => hl7Unescape(obr.getComponent(32, 1, index)).trim();
  const name = [sub(5), sub(2), sub(3), sub(1)].filter(Boolean).join(' ');
  return name === '' ? null : name.slice(0, 200);
}

function textOf(observations: Hl7Segment[]): string {
  const lines = observations.filter((obx) => TEXT_TYPES.has(componentText(obx, 2).toUpperCase())).flatMap((obx) => repetitionsText(obx, 5));
  return lines
    .join('\n')
    .replace(/[ \t]+$/gm, '')
    .trim();
}

/** The Base64 of an OBX of type ED naming a PDF (source ^ AP|Application ^ PDF ^ Base64 ^ data). */
function pdfOf(observations: Hl7Segment[]): string | null {
  for (const [index, obx] of observations.entries()) {
    if (componentText(obx, 2).toUpperCase() !== 'ED') continue;
    const location = `OBX^${index + 1}^5`;
    const subtype = componentText(obx, 5, 3).toUpperCase();
    const encoding = componentText(obx, 5, 4).toUpperCase();
    if (subtype !== 'PDF' || encoding !== 'BASE64')
      throw badField(location, 'An encapsulated report must be a PDF in Base64 (OBX-5: source^AP^PDF^Base64^data).');
    const data = obx.getComponent(5, 5).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) throw badField(location, RESULT_MESSAGES.reportPdf);
    return data;
  }
  return null;
}

export function readOruReport(message: Hl7Message): OruReport {
  const obr = message.getSegment('OBR');
  if (obr === undefined) throw missingField('OBR', 'the observation request');
  const orc = message.getSegment('ORC');
  const pv1 = message.getSegment('PV1');
  const appointment = firstOf([
    [obr, 2, 'OBR^1^2'],
    [orc, 2, 'ORC^1^2'],
    [pv1, 19, 'PV1^1^19'],
  ]);
  if (appointment === null) throw missingField('OBR^1^2', "the portal's appointment id, as SCH-1 of its SIU^S12");
  const appointmentId = appointmentIdAt(appointment.location, appointment.value);
  const accession = firstOf([
    [obr, 3, 'OBR^1^3'],
    [obr, 18, 'OBR^1^18'],
  ]);
  if (accession === null) throw missingField('OBR^1^3', 'the accession number');
  if (!ACCESSION.test(accession.value)) throw badField(accession.location, RESULT_MESSAGES.accessionNumber);
  const referrer = personOf(obr, 16) ?? personOf(pv1, 8);
  if (referrer === null) throw missingField('OBR^1^16', 'the ordering provider, the referring doctor');
  const observations = message.getAllSegments('OBX');
  const reportText = textOf(observations);
  if (reportText === '') throw missingField('OBX^1^5', 'the report text, in OBX segments of type TX, FT or ST');
  if (reportText.length > 100_000) throw badField('OBX^1^5', 'The report text is longer than 100,000 characters.');
  const uid = componentText(message.getSegment('ZDS'), 1);
  if (uid !== '' && (uid.length > 64 || !STUDY_UID.test(uid))) throw badField('ZDS^1^1', RESULT_MESSAGES.studyInstanceUid);
  return {
    appointmentId,
    accessionNumber: accession.value,
    status: componentText(obr, 25).toUpperCase(),
    reportText,
    pdfBase64: pdfOf(observations),
    referrer,
    radiologistName: radiologistOf(obr),
    reportedAtText: componentText(obr, 22) || componentText(obr, 7),
    studyInstanceUid: uid === '' ? null : uid,
  };
}

/** When it was reported, in the clinic's zone when the RIS gave no offset; null when absent or unreadable. */
export function reportedAt(report: OruReport, timeZone: string): Date | null {
  return report.reportedAtText === '' ? null : parseHl7Timestamp(report.reportedAtText, timeZone);
}
