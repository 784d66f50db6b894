import type { Readable } from 'node:stream';
import type { Resource, ResourceType } from '@medplum/fhirtypes';
import type { SearchInput, SearchPage, SearchParamDefinition } from './search';

/** A Binary's bytes as stored, answered as they are when the client does not ask for FHIR JSON. */
export interface RawContent {
  contentType: string;
  size: number;
  stream: Readable;
}

/**
 * One resource type of the FHIR API: how it is read by id and searched. The routes (routes.ts)
 * and the CapabilityStatement (capability.ts) are both made from the list of these, so the
 * statement lists exactly what is served.
 */
export interface FhirResourceDefinition {
  type: ResourceType;
  /** What the resource stands for here, for the CapabilityStatement. */
  documentation: string;
  searchParams: readonly SearchParamDefinition[];
  /** Whether an instance can be patched (Appointment: cancelled), for the CapabilityStatement. */
  patch?: boolean;
  /** Operations on the type, for the CapabilityStatement (each registered by its own file). */
  operations?: ReadonlyArray<{ name: string; definition: string; documentation: string }>;
  /** A patient's health information: every read and search of it is written to the audit log. */
  patientData?: boolean;
  read(id: string): Promise<Resource | null>;
  /** Absent: read only (Binary), and a search is a 404 like any path not served. */
  search?(input: SearchInput): Promise<SearchPage>;
  /** Binary only: the bytes themselves, for a read that does not ask for FHIR JSON (R4 binary.html#rest). */
  readRaw?(id: string): Promise<RawContent | null>;
}

/** A FHIR id: 1 to 64 of A-Z, a-z, 0-9, '-' and '.' (R4 datatypes.html#id). */
export const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
