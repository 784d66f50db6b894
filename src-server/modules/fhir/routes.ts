import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fhirScope } from '../../platform/route-access';
import { capabilityStatement, type CapabilityFacts } from './capability';
import { answerFhirError, FHIR_JSON, invalidParameter, operationOutcome, resourceNotFound } from './outcome';
import { FHIR_ID, type FhirResourceDefinition } from './resource-definition';
import { readSearch, searchBundle } from './search';

/**
 * The FHIR R4 API under FHIR_BASE_PATH, in a context of its own: FHIR's media type, and every
 * failure (a refused token included) answered as an OperationOutcome instead of the portal's error shape.
 */

export const FHIR_BASE_PATH = '/fhir/R4';
const TAGS = ['fhir'];

function send(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('content-type', FHIR_JSON).header('cache-control', 'no-store').send(body);
}

/** Whether a read asks for the resource as FHIR JSON (Accept or _format) rather than a Binary's own bytes. */
function wantsFhirJson(request: FastifyRequest): boolean {
  const format = (request.query as Record<string, unknown> | undefined)?._format;
  if (typeof format === 'string') return /json/i.test(format);
  return /application\/(fhir\+)?json/i.test(request.headers.accept ?? '');
}

function registerRead(fhir: FastifyInstance, resource: FhirResourceDefinition): void {
  const { type, readRaw } = resource;
  fhir.get(
    `/${type}/:id`,
    { config: { access: fhirScope(type, 'read') }, schema: { tags: TAGS, summary: `FHIR read of a ${type} (scope system/${type}.r)` } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!FHIR_ID.test(id)) throw invalidParameter('The id is not a FHIR id (1 to 64 of A-Z, a-z, 0-9, - and .).');
      if (readRaw !== undefined && !wantsFhirJson(request)) {
        const raw = await readRaw(id);
        if (raw === null) throw resourceNotFound(type);
        return (
          reply
            .code(200)
            .header('content-type', raw.contentType)
            .header('content-length', String(raw.size))
            .header('cache-control', 'no-store')
            // A machine client's download, never shown inline on the portal's origin.
            .header('content-disposition', 'attachment')
            .send(raw.stream)
        );
      }
      const found = await resource.read(id);
      if (found === null) throw resourceNotFound(type);
      return send(reply, 200, found);
    },
  );
}

function registerResource(fhir: FastifyInstance, base: string, resource: FhirResourceDefinition): void {
  const { type } = resource;
  registerRead(fhir, resource);
  const search = resource.search?.bind(resource);
  // A type without search (Binary) has no search route: its search is the not-found handler's 404.
  if (search === undefined) return;
  fhir.get(
    `/${type}`,
    { config: { access: fhirScope(type, 'search') }, schema: { tags: TAGS, summary: `FHIR search of ${type} (scope system/${type}.s)` } },
    async (request, reply) => {
      const input = readSearch(request.query, resource.searchParams);
      return send(reply, 200, searchBundle(base, type, request.query, await search(input)));
    },
  );
}

export interface FhirRoutesOptions {
  resources: readonly FhirResourceDefinition[];
  /** The absolute base URL (PUBLIC_URL + FHIR_BASE_PATH) of the links and full URLs. */
  base: string;
  facts: Omit<CapabilityFacts, 'base'>;
}

export async function registerFhirRoutes(app: FastifyInstance, options: FhirRoutesOptions): Promise<void> {
  const { resources, base, facts } = options;
  const statement = capabilityStatement(resources, { ...facts, base });
  await app.register(
    async (fhir) => {
      fhir.addContentTypeParser(['application/fhir+json'], { parseAs: 'string' }, fhir.getDefaultJsonParser('error', 'error'));
      fhir.setErrorHandler(answerFhirError);
      fhir.setNotFoundHandler(async (_request, reply) =>
        send(reply, 404, operationOutcome('not-supported', 'This FHIR server has no such resource type or operation.')),
      );
      fhir.get(
        '/metadata',
        { config: { access: 'public' }, schema: { tags: TAGS, summary: 'FHIR CapabilityStatement: what this FHIR server serves' } },
        async (_request, reply) => send(reply, 200, statement),
      );
      for (const resource of resources) registerResource(fhir, base, resource);
    },
    { prefix: FHIR_BASE_PATH },
  );
}
