import type { Practitioner } from '@medplum/fhirtypes';
import type { ReferrerRow } from '../repository';
import { PORTAL_SYSTEM, PROVIDER_NUMBER_SYSTEM } from './systems';

/** A referring doctor as an R4 Practitioner (docs/integration/fhir.md#practitioner). */
export function toPractitioner(row: ReferrerRow): Practitioner {
  const given = row.first_name.trim() === '' ? {} : { given: [row.first_name] };
  const family = row.last_name.trim() === '' ? {} : { family: row.last_name };
  const address = { ...(row.city === '' ? {} : { city: row.city }), ...(row.postcode === '' ? {} : { postalCode: row.postcode }) };
  return {
    resourceType: 'Practitioner',
    id: row.id,
    identifier: [{ system: PROVIDER_NUMBER_SYSTEM, value: row.provider_number }],
    active: true,
    name: [{ use: 'official', ...family, ...given }],
    ...(Object.keys(address).length === 0 ? {} : { address: [{ use: 'work', ...address }] }),
    ...(row.practice_name === ''
      ? {}
      : { extension: [{ url: `${PORTAL_SYSTEM}/StructureDefinition/practice-name`, valueString: row.practice_name }] }),
  };
}
