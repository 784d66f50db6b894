import type { Binary } from '@medplum/fhirtypes';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import type { FileStorage } from '../../platform/storage';
import { openServableAttachment } from '../attachments/public';
import { openReleasedReportPdf } from '../results/public';
import { parseBinaryId } from './binary-ids';
import { createDocumentsRepository, type DocumentsRepository } from './documents-repository';
import { ACCESSION_SYSTEM, toDiagnosticReport } from './mappings/diagnostic-report';
import { DOCUMENT_TYPE_SYSTEM, toDocumentReference } from './mappings/document-reference';
import type { FhirResourceDefinition, RawContent } from './resource-definition';
import { pageOf, singleValued, type SearchInput, type SearchParamDefinition } from './search';
import { boundsOf, parseTimeKey, patientIdsOf, timeKey } from './search-values';

/**
 * A booking's documents (DocumentReference), the released reports (DiagnosticReport) and the
 * bytes of both (Binary, read only). Only what a patient could be shown is served: clean
 * documents, reports from their release on; anything else is a 404 like an id never given out.
 */

export interface DocumentsDeps {
  db: Queryable;
  storage: FileStorage;
  clock: Clock;
  /** The absolute FHIR base URL, for the Binary urls. */
  base: string;
}

/** Who the owning modules' audit entries name for a read through the FHIR API. */
const FHIR_ACTOR = 'fhir';

const PATIENT_PARAMS: SearchParamDefinition[] = [
  { name: 'patient', type: 'reference', documentation: 'Patient/<id>; comma-separated: any of them' },
  { name: 'subject', type: 'reference', documentation: 'Patient/<id> (the same as patient)' },
];

/** Token values (`[system|]code`) of one code system; a value of another system matches nothing and drops out. */
function tokenCodes(input: SearchInput, name: string, system: string): string[] | undefined {
  return singleValued(input, name)?.flatMap((value) => {
    const bar = value.lastIndexOf('|');
    if (bar < 0) return [value];
    const [given, code] = [value.slice(0, bar), value.slice(bar + 1)];
    return given === '' || given === system ? [code] : [];
  });
}

/** The filters of both searches: _id, patient, the cursor and the page size. */
function commonQuery(input: SearchInput) {
  const ids = singleValued(input, '_id');
  const patientIds = patientIdsOf(input);
  const after = parseTimeKey(input.after);
  return {
    limit: input.count + 1,
    ...(ids === undefined ? {} : { ids }),
    ...(patientIds === undefined ? {} : { patientIds }),
    ...(after === undefined ? {} : { after }),
  };
}

/** A search for one status of a resource that has only `only`: the others find nothing. */
const asksOtherStatus = (input: SearchInput, only: string): boolean => singleValued(input, 'status')?.includes(only) === false;

const EMPTY = { resources: [], nextKey: null };

function documentReference(repository: DocumentsRepository, base: string): FhirResourceDefinition {
  const map = (row: Parameters<typeof toDocumentReference>[0]) => toDocumentReference(row, base);
  return {
    type: 'DocumentReference',
    patientData: true,
    documentation: 'A document the patient sent with a booking or booking request (a referral, a card), once its virus scan is clean',
    searchParams: [
      ...PATIENT_PARAMS,
      { name: 'date', type: 'date', documentation: 'When it was uploaded: ge, gt, le, lt (or eq) with a date or a dateTime with its zone' },
      { name: 'type', type: 'token', documentation: `The document type ([${DOCUMENT_TYPE_SYSTEM}|]code, e.g. REFERRAL)` },
      { name: 'status', type: 'token', documentation: 'current (the only status here)' },
    ],
    read: async (id) => {
      const [row] = await repository.documents({ ids: [id], limit: 1 });
      return row === undefined ? null : map(row);
    },
    search: async (input) => {
      if (asksOtherStatus(input, 'current')) return EMPTY;
      const types = tokenCodes(input, 'type', DOCUMENT_TYPE_SYSTEM);
      const rows = await repository.documents({
        ...commonQuery(input),
        created: boundsOf(input, 'date'),
        ...(types === undefined ? {} : { types }),
      });
      return pageOf(rows, input.count, (row) => timeKey(row.created_at, row.id), map);
    },
  };
}

function diagnosticReport(repository: DocumentsRepository, deps: DocumentsDeps): FhirResourceDefinition {
  const map = (row: Parameters<typeof toDiagnosticReport>[0]) => toDiagnosticReport(row, deps.base);
  const now = () => deps.clock.now().toISOString();
  return {
    type: 'DiagnosticReport',
    patientData: true,
    documentation: 'A radiology report delivered by the RIS, from its release time on (before it, there is none)',
    searchParams: [
      ...PATIENT_PARAMS,
      { name: 'date', type: 'date', documentation: 'The exam’s time (effective): ge, gt, le, lt (or eq)' },
      { name: 'issued', type: 'date', documentation: 'The release time: ge, gt, le, lt (or eq)' },
      { name: 'identifier', type: 'token', documentation: `The accession number ([${ACCESSION_SYSTEM}|]value)` },
      { name: 'status', type: 'token', documentation: 'final (the only status served)' },
    ],
    read: async (id) => {
      const [row] = await repository.reports({ ids: [id], now: now(), limit: 1 });
      return row === undefined ? null : map(row);
    },
    search: async (input) => {
      if (asksOtherStatus(input, 'final')) return EMPTY;
      const accessions = tokenCodes(input, 'identifier', ACCESSION_SYSTEM);
      const rows = await repository.reports({
        ...commonQuery(input),
        now: now(),
        effective: boundsOf(input, 'date'),
        issued: boundsOf(input, 'issued'),
        ...(accessions === undefined ? {} : { accessions }),
      });
      return pageOf(rows, input.count, (row) => timeKey(row.release_at, row.id), map);
    },
  };
}

async function bytesOf(raw: RawContent): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of raw.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function binary(deps: DocumentsDeps): FhirResourceDefinition {
  const readRaw = async (id: string): Promise<RawContent | null> => {
    const key = parseBinaryId(id);
    const audit = { actor: FHIR_ACTOR, now: deps.clock.now() };
    if (key === null) return null;
    return key.kind === 'attachment'
      ? openServableAttachment(deps.db, deps.storage, key.id, audit)
      : openReleasedReportPdf(deps.db, deps.storage, key.id, audit);
  };
  return {
    type: 'Binary',
    patientData: true,
    documentation: 'The bytes of a DocumentReference (attachment-<id>) or of a DiagnosticReport’s PDF (report-<id>); read only',
    searchParams: [],
    readRaw,
    read: async (id) => {
      const raw = await readRaw(id);
      if (raw === null) return null;
      const key = parseBinaryId(id);
      const owner = key?.kind === 'report' ? `DiagnosticReport/${key.id}` : `DocumentReference/${key?.id ?? ''}`;
      const resource: Binary = {
        resourceType: 'Binary',
        id,
        contentType: raw.contentType,
        securityContext: { reference: owner },
        data: (await bytesOf(raw)).toString('base64'),
      };
      return resource;
    },
  };
}

export function documentResources(deps: DocumentsDeps): FhirResourceDefinition[] {
  const repository = createDocumentsRepository(deps.db);
  return [documentReference(repository, deps.base), diagnosticReport(repository, deps), binary(deps)];
}
