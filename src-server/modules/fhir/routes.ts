import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLogRepository } from '../../db/audit-log';
import { fhirScope } from '../../platform/route-access';
import { fhirClientOf } from './access';
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

export function send(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('content-type', FHIR_JSON).header('cache-control', 'no-store').send(body);
}

/**
 * Who read which patient's information: every read and search of a patient-data type, with the
 * client, the type, the id read (or the ids found) and the names of the search's parameters, never
 * their values (a name or a date of birth searched for is personal data).
 */
type AuditPatientData = (
  request: FastifyRequest,
  entry: { action: 'fhir_read' | 'fhir_search'; type: string; ids: string[]; parameters?: string[] },
) => Promise<void>;

/** Whether a read asks for the resource as FHIR JSON (Accept or _format) rather than a Binary's own bytes. */
function wantsFhirJson(request: FastifyRequest): boolean {
  const format = (request.query as Record<string, unknown> | undefined)?._format;
  if (typeof format === 'string') return /json/i.test(format);
  return /application\/(fhir\+)?json/i.test(request.headers.accept ?? '');
}

function registerRead(fhir: FastifyInstance, resource: FhirResourceDefinition, audit: AuditPatientData): void {
  const { type, readRaw } = resource;
  fhir.get(
    `/${type}/:id`,
    { config: { access: fhirScope(type, 'read') }, schema: { tags: TAGS, summary: `FHIR read of a ${type} (scope system/${type}.r)` } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!FHIR_ID.test(id)) throw invalidParameter('The id is not a FHIR id (1 to 64 of A-Z, a-z, 0-9, - and .).');
      if (readRaw !== undefined && !wantsFhirJson(request)) {
        const raw = await readRaw(id);
        if (resource.patientData === true) await audit(request, { action: 'fhir_read', type, ids: raw === null ? [] : [id] });
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
      if (resource.patientData === true) await audit(request, { action: 'fhir_read', type, ids: found === null ? [] : [id] });
      if (found === null) throw resourceNotFound(type);
      return send(reply, 200, found);
    },
  );
}

function registerResource(fhir: FastifyInstance, base: string, resource: FhirResourceDefinition, audit: AuditPatientData): void {
  const { type } = resource;
  registerRead(fhir, resource, audit);
  const search = resource.search?.bind(resource);
  // A type without search (Binary) has no search route: its search is the not-found handler's 404.
  if (search === undefined) return;
  fhir.get(
    `/${type}`,
    { config: { access: fhirScope(type, 'search') }, schema: { tags: TAGS, summary: `FHIR search of ${type} (scope system/${type}.s)` } },
    async (request, reply) => {
      const input = readSearch(request.query, resource.searchParams);
      const page = await search(input);
      if (resource.patientData === true)
        await audit(request, {
          action: 'fhir_search',
          type,
          ids: page.resources.map((found) => found.id ?? ''),
          parameters: Object.keys(request.query as object).sort(),
        });
      return send(reply, 200, searchBundle(base, type, request.query, page));
    },
  );
}

export interface FhirRoutesOptions {
  resources: readonly FhirResourceDefinition[];
  audit: AuditLogRepository;
  /** The absolute base URL (PUBLIC_URL + FHIR_BASE_PATH) of the links and full URLs. */
  base: string;
  facts: Omit<CapabilityFacts, 'base'>;
  /** Operations (Appointment/$book), registered in the same context (its media type and error answers). */
  operations?: ReadonlyArray<(fhir: FastifyInstance) => void>;
}

export async function registerFhirRoutes(app: FastifyInstance, options: FhirRoutesOptions): Promise<void> {
  const { resources, base, facts } = options;
  const audit: AuditPatientData = (request, entry) =>
    options.audit.record({
      actor: `fhir-client:${fhirClientOf(request)}`,
      action: entry.action,
      subjectType: entry.type,
      subjectId: entry.ids.length === 1 && entry.action === 'fhir_read' ? (entry.ids[0] ?? null) : null,
      details: { found: entry.ids.length, ...(entry.action === 'fhir_search' ? { ids: entry.ids, parameters: entry.parameters } : {}) },
    });
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
      // Before the resources: `/Appointment/$book` is a path of its own, not a read of an id.
      for (const operation of options.operations ?? []) operation(fhir);
      for (const resource of resources) registerResource(fhir, base, resource, audit);
    },
    { prefix: FHIR_BASE_PATH },
  );
}
