import type { CodeableConcept, DocumentReference, Extension } from '@medplum/fhirtypes';
import type { DocumentRow } from '../documents-repository';
import { binaryIdOfAttachment } from '../binary-ids';
import { PORTAL_SYSTEM } from './systems';

export const DOCUMENT_TYPE_SYSTEM = `${PORTAL_SYSTEM}/document-type`;

/** LOINC's "Referral note": the category of a document the patient gave a referral's date or doctor for. */
const REFERRAL_CATEGORY: CodeableConcept = {
  coding: [{ system: 'http://loinc.org', code: '57133-1', display: 'Referral note' }],
  text: 'Referral',
};

function typeOf(row: DocumentRow): CodeableConcept {
  if (row.document_type_code === null) return { text: 'Other document' };
  return {
    coding: [{ system: DOCUMENT_TYPE_SYSTEM, code: row.document_type_code, display: row.document_type_title ?? row.document_type_code }],
    text: row.document_type_title ?? row.document_type_code,
  };
}

/** What the patient said about a referral: a sentence, its date as an extension, the doctor as the author. */
function referralOf(row: DocumentRow): Partial<DocumentReference> {
  const given = row.referral_date !== null || row.referring_doctor !== null;
  if (!given) return row.document_type_code === 'REFERRAL' ? { category: [REFERRAL_CATEGORY] } : {};
  const dated = row.referral_date === null ? '' : ` dated ${row.referral_date}`;
  const from = row.referring_doctor === null ? '' : ` from ${row.referring_doctor}`;
  const extension: Extension[] =
    row.referral_date === null ? [] : [{ url: `${PORTAL_SYSTEM}/StructureDefinition/referral-date`, valueDate: row.referral_date }];
  return {
    category: [REFERRAL_CATEGORY],
    description: `Referral${dated}${from}, as the patient gave it`,
    ...(row.referring_doctor === null ? {} : { author: [{ display: row.referring_doctor }] }),
    ...(extension.length === 0 ? {} : { extension }),
  };
}

/** A clean document of a booking or booking request as an R4 DocumentReference (docs/integration/fhir.md#documentreference). */
export function toDocumentReference(row: DocumentRow, base: string): DocumentReference {
  const appointments = row.appointment_ids.map((id) => ({ reference: `Appointment/${id}` }));
  return {
    resourceType: 'DocumentReference',
    id: row.id,
    status: 'current',
    type: typeOf(row),
    subject: { reference: `Patient/${row.patient_id}` },
    date: row.created_at,
    ...referralOf(row),
    content: [
      {
        attachment: {
          contentType: row.content_type,
          url: `${base}/Binary/${binaryIdOfAttachment(row.id)}`,
          size: Number(row.size_bytes),
          title: row.file_name,
          creation: row.created_at,
          // R4's hash is SHA-1; the portal keeps SHA-256, so it goes in an extension of its own.
          extension: [{ url: `${PORTAL_SYSTEM}/StructureDefinition/sha256`, valueString: row.sha256 }],
        },
      },
    ],
    ...(appointments.length === 0 ? {} : { context: { related: appointments } }),
  };
}
