import type { ContactPoint, Location } from '@medplum/fhirtypes';
import type { ClinicRow } from '../repository';
import { PORTAL_SYSTEM } from './systems';

function telecomOf(row: ClinicRow): ContactPoint[] {
  const phone: ContactPoint[] = row.phone.trim() === '' ? [] : [{ system: 'phone', value: row.phone, use: 'work' }];
  const email: ContactPoint[] = row.email === null || row.email.trim() === '' ? [] : [{ system: 'email', value: row.email, use: 'work' }];
  return [...phone, ...email];
}

/** A clinic as an R4 Location (docs/integration/fhir.md#location). */
export function toLocation(row: ClinicRow): Location {
  return {
    resourceType: 'Location',
    id: row.id,
    identifier: [{ system: `${PORTAL_SYSTEM}/clinic-slug`, value: row.slug }],
    status: 'active',
    name: row.name,
    mode: 'instance',
    type: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode',
            code: 'RADDX',
            display: 'Radiology diagnostics or therapeutics unit',
          },
        ],
      },
    ],
    ...(telecomOf(row).length === 0 ? {} : { telecom: telecomOf(row) }),
    address: {
      use: 'work',
      type: 'physical',
      line: [row.street],
      city: row.suburb,
      district: row.region_name,
      state: row.state,
      postalCode: row.postcode,
    },
    position: { latitude: row.latitude, longitude: row.longitude },
    extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/timezone', valueCode: row.time_zone }],
  };
}
