import {
  PATIENT_LOOKUP_PATH,
  PatientLookupResponseSchema,
  type PatientLookupRequest,
  type PatientLookupResponse,
} from '@contract/api/patient-lookup';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/** Staff look up a patient who booked before (src-contract/api/patient-lookup.ts), on the staff session cookie. */
export function createPatientLookupApi(client: ApiClient) {
  return {
    find: async (request: PatientLookupRequest): Promise<PatientLookupResponse> =>
      parseResponse(
        PATIENT_LOOKUP_PATH,
        PatientLookupResponseSchema,
        (await client.http.post<unknown>(PATIENT_LOOKUP_PATH, request, { staffSession: true })).data,
      ),
  };
}

export type PatientLookupApi = ReturnType<typeof createPatientLookupApi>;
