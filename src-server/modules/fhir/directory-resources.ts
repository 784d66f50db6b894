import type { FhirRepository, PageQuery } from './repository';
import { toHealthcareService } from './mappings/healthcare-service';
import { toLocation } from './mappings/location';
import { toPractitioner } from './mappings/practitioner';
import type { FhirResourceDefinition } from './resource-definition';
import { pageOf, singleValued, type SearchInput, type SearchParamDefinition } from './search';

/**
 * The provider's directory as FHIR: clinics (Location), exams (HealthcareService) and referring
 * doctors (Practitioner), each read by id and searched a keyset page at a time.
 */

const NAME_PARAM: SearchParamDefinition = {
  name: 'name',
  type: 'string',
  documentation: 'A case-insensitive start of the name',
};

function pageQuery(input: SearchInput): PageQuery {
  const name = input.groups.get('name');
  const identifier = singleValued(input, 'identifier');
  const ids = singleValued(input, '_id');
  return {
    limit: input.count + 1,
    ...(ids === undefined ? {} : { ids }),
    ...(name === undefined ? {} : { names: name }),
    // token search: system|value or value; only the value is compared.
    ...(identifier === undefined ? {} : { identifiers: identifier.map((value) => value.split('|').at(-1) ?? '') }),
    ...(input.after === undefined ? {} : { after: input.after }),
  };
}

const byId = (row: { id: string }): string => row.id;

export function directoryResources(repository: FhirRepository): FhirResourceDefinition[] {
  const one = async <Row>(rows: Promise<Row[]>): Promise<Row | undefined> => (await rows)[0];
  return [
    {
      type: 'Location',
      documentation: 'The provider’s clinics',
      searchParams: [NAME_PARAM],
      read: async (id) => {
        const row = await one(repository.clinics({ ids: [id], limit: 1 }));
        return row === undefined ? null : toLocation(row);
      },
      search: async (input) => pageOf(await repository.clinics(pageQuery(input)), input.count, byId, toLocation),
    },
    {
      type: 'HealthcareService',
      documentation: 'The exams the provider offers',
      searchParams: [NAME_PARAM],
      read: async (id) => {
        const row = await one(repository.exams({ ids: [id], limit: 1 }));
        return row === undefined ? null : toHealthcareService(row);
      },
      search: async (input) => pageOf(await repository.exams(pageQuery(input)), input.count, byId, toHealthcareService),
    },
    {
      type: 'Practitioner',
      documentation: 'Referring doctors',
      searchParams: [
        { ...NAME_PARAM, documentation: 'A case-insensitive start of the family or given name' },
        { name: 'identifier', type: 'token', documentation: 'The Medicare provider number ([system|]value)' },
      ],
      read: async (id) => {
        const row = await one(repository.referrers({ ids: [id], limit: 1 }));
        return row === undefined ? null : toPractitioner(row);
      },
      search: async (input) => pageOf(await repository.referrers(pageQuery(input)), input.count, byId, toPractitioner),
    },
  ];
}
