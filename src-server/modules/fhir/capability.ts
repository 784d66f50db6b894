import type { CapabilityStatement } from '@medplum/fhirtypes';
import type { FhirResourceDefinition } from './resource-definition';
import { MAX_COUNT } from './search';

/**
 * The CapabilityStatement of GET /fhir/R4/metadata, made from the same resource definitions as the
 * routes: every resource type listed is read, and searched with the parameters listed when it is
 * searchable (Binary is read only), and nothing else.
 */

const COMMON_PARAMS = [
  { name: '_id', type: 'token' as const, documentation: 'The logical id (several, comma-separated)' },
  {
    name: '_count',
    type: 'number' as const,
    documentation: `Entries per page, 1 to ${MAX_COUNT} (default 20); the next page is the Bundle's next link`,
  },
];

export interface CapabilityFacts {
  base: string;
  version: string;
  /** When this statement was made (the server's start). */
  date: string;
}

export function capabilityStatement(resources: readonly FhirResourceDefinition[], facts: CapabilityFacts): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: facts.date,
    publisher: 'Radiology patient portal',
    kind: 'instance',
    software: { name: 'Radiology patient portal', version: facts.version },
    implementation: { description: 'The radiology patient portal’s FHIR R4 API', url: facts.base },
    fhirVersion: '4.0.1',
    format: ['json', 'application/fhir+json'],
    rest: [
      {
        mode: 'server',
        security: {
          cors: false,
          service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'OAuth' }] }],
          description:
            'OAuth 2.0 access tokens (Authorization: Bearer) from the provider’s identity provider, for this API’s audience, with SMART system scopes: system/<type>.rs (v2) or system/<type>.read (v1); system/*.rs for all.',
        },
        resource: resources.map((resource) => ({
          type: resource.type,
          documentation: resource.documentation,
          interaction: [
            { code: 'read' as const },
            ...(resource.search === undefined ? [] : [{ code: 'search-type' as const }]),
            ...(resource.patch === true ? [{ code: 'patch' as const }] : []),
          ],
          ...(resource.search === undefined ? {} : { searchParam: [...COMMON_PARAMS, ...resource.searchParams] }),
          ...(resource.operations === undefined ? {} : { operation: [...resource.operations] }),
        })),
      },
    ],
  };
}
