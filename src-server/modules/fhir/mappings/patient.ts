import type { ContactPoint, Patient } from '@medplum/fhirtypes';
import type { PatientRow } from '../patients-repository';

/** A patient as an R4 Patient (docs/integration/fhir.md#patient): the details given when booking. */
export function toPatient(row: PatientRow): Patient {
  const telecom: ContactPoint[] = [
    ...(row.contact_number ? [{ system: 'phone' as const, value: row.contact_number, use: 'mobile' as const }] : []),
    ...(row.email ? [{ system: 'email' as const, value: row.email, use: 'home' as const }] : []),
  ];
  return {
    resourceType: 'Patient',
    id: row.id,
    active: true,
    name: [
      {
        use: 'official',
        family: row.last_name,
        given: [row.first_name],
        ...(row.title.trim() === '' ? {} : { prefix: [row.title] }),
      },
    ],
    ...(telecom.length === 0 ? {} : { telecom }),
    birthDate: row.date_of_birth,
    ...(row.postcode ? { address: [{ use: 'home' as const, postalCode: row.postcode, country: 'AU' }] } : {}),
  };
}
