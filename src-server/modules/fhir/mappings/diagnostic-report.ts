import type { Attachment, DiagnosticReport } from '@medplum/fhirtypes';
import { binaryIdOfReport } from '../binary-ids';
import type { ReportRow } from '../documents-repository';
import { PORTAL_SYSTEM } from './systems';

export const ACCESSION_SYSTEM = `${PORTAL_SYSTEM}/accession-number`;

/** The report as delivered: its text inline, its PDF as a Binary to read. */
function presentedFormOf(row: ReportRow, base: string): Attachment[] {
  return [
    {
      contentType: 'text/plain; charset=utf-8',
      data: Buffer.from(row.report_text, 'utf8').toString('base64'),
      title: 'Report text',
    },
    {
      contentType: 'application/pdf',
      url: `${base}/Binary/${binaryIdOfReport(row.id)}`,
      size: row.pdf_size,
      title: `report-${row.accession_number}.pdf`,
    },
  ];
}

/**
 * A released report as an R4 DiagnosticReport (docs/integration/fhir.md#diagnosticreport). The
 * referrer named in the delivery asked for the exam, they did not read it: no interpreter or
 * performer is given, as the delivery names neither.
 */
export function toDiagnosticReport(row: ReportRow, base: string): DiagnosticReport {
  return {
    resourceType: 'DiagnosticReport',
    id: row.id,
    identifier: [{ system: ACCESSION_SYSTEM, value: row.accession_number }],
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'RAD', display: 'Radiology' }] }],
    code: { coding: [{ system: `${PORTAL_SYSTEM}/exam-code`, code: row.exam_code, display: row.exam_name }], text: row.exam_name },
    subject: { reference: `Patient/${row.patient_id}` },
    effectiveDateTime: row.starts_at,
    issued: row.release_at,
    ...(row.study_instance_uid === null
      ? {}
      : { imagingStudy: [{ identifier: { system: 'urn:dicom:uid', value: `urn:oid:${row.study_instance_uid}` } }] }),
    presentedForm: presentedFormOf(row, base),
    // The appointment the report is of: R4's basedOn takes no Appointment.
    extension: [
      { url: `${PORTAL_SYSTEM}/StructureDefinition/appointment`, valueReference: { reference: `Appointment/${row.appointment_id}` } },
    ],
  };
}
