import {
  PATIENT_LOOKUP_PATH,
  PatientLookupResponseSchema,
  type PatientLookupRequest,
  type PatientLookupResponse,
} from '@contract/api/patient-lookup';
import type { ApiClient } from '../../api/client';
import { postParsed } from '../../api/parsed-request';

/** Staff look up a patient who booked before (src-contract/api/patient-lookup.ts), on the staff session cookie. */
export function createPatientLookupApi(client: ApiClient) {
  return {
    find: async (request: PatientLookupRequest): Promise<PatientLookupResponse> =>
      postParsed(client.http, PATIENT_LOOKUP_PATH, PatientLookupResponseSchema, request, { staffSession: true }),
  };
}

export type PatientLookupApi = ReturnType<typeof createPatientLookupApi>;
