import type { HealthcareService } from '@medplum/fhirtypes';
import type { ExamRow } from '../repository';
import { PORTAL_SYSTEM } from './systems';

/** An exam as an R4 HealthcareService (docs/integration/fhir.md#healthcareservice). */
export function toHealthcareService(row: ExamRow): HealthcareService {
  return {
    resourceType: 'HealthcareService',
    id: row.id,
    identifier: [
      { system: `${PORTAL_SYSTEM}/exam-code`, value: row.exam_code },
      { system: `${PORTAL_SYSTEM}/exam-slug`, value: row.slug },
    ],
    active: true,
    category: [
      {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/service-category', code: '35', display: 'Hospital' }],
        text: 'Diagnostic imaging',
      },
    ],
    type: [{ coding: [{ system: `${PORTAL_SYSTEM}/exam-code`, code: row.exam_code, display: row.name }], text: row.name }],
    specialty: [
      { coding: [{ system: 'http://dicom.nema.org/resources/ontology/DCM', code: row.modality_code, display: row.modality_name }] },
    ],
    name: row.name,
    ...(row.preparation_notes.trim() === '' ? {} : { extraDetails: row.preparation_notes }),
    appointmentRequired: true,
    ...(row.referral_required ? { referralMethod: [{ text: 'A referral is required' }] } : {}),
    characteristic: [{ text: row.enquiry_only ? 'Booked on enquiry' : 'Bookable online' }],
    extension: [
      {
        url: `${PORTAL_SYSTEM}/StructureDefinition/exam-duration`,
        valueDuration: { value: row.duration_minutes, unit: 'min', system: 'http://unitsofmeasure.org', code: 'min' },
      },
    ],
  };
}
