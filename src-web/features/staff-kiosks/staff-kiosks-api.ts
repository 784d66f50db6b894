import { EnrollmentCodeSchema, KioskListSchema, KioskSchema, type Kiosk } from '@contract/api/kiosks';
import type { z } from 'zod';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

type KioskList = z.infer<typeof KioskListSchema>;

export type EnrollmentCode = z.infer<typeof EnrollmentCodeSchema>;
export interface NewKiosk {
  name: string;
  clinicSlug: string | null;
}

const KIOSKS_PATH = '/api/staff/kiosks';

/**
 * Typed calls of /api/staff/kiosks/* (src-contract/api/kiosks.ts, docs/rules/kiosk.md#enrollment),
 * for kiosk administrators. A 401 concerns the staff session, not a patient's (`staffSession`).
 */
export function createStaffKiosksApi(client: ApiClient) {
  const { http } = client;
  const post = async <S extends z.ZodType>(path: string, schema: S, body?: unknown): Promise<z.infer<S>> =>
    parseResponse(path, schema, (await http.post<unknown>(path, body, { staffSession: true })).data);

  return {
    /** Every kiosk with its state, times and health, and after how long unheard a kiosk counts as silent. */
    list: async (): Promise<KioskList> =>
      parseResponse(KIOSKS_PATH, KioskListSchema, (await http.get<unknown>(KIOSKS_PATH, { staffSession: true })).data),

    /** Adds a kiosk; the answer holds its one-time enrollment code (shown once). */
    create: (input: NewKiosk): Promise<EnrollmentCode> => post(KIOSKS_PATH, EnrollmentCodeSchema, input),

    /** A new one-time code for the kiosk; earlier unused codes stop working. */
    newCode: (kioskId: string): Promise<EnrollmentCode> =>
      post(`${KIOSKS_PATH}/${encodeURIComponent(kioskId)}/enrollment-code`, EnrollmentCodeSchema),

    /** Revokes the kiosk: its token stops working at once. */
    revoke: (kioskId: string): Promise<Kiosk> => post(`${KIOSKS_PATH}/${encodeURIComponent(kioskId)}/revoke`, KioskSchema),
  };
}

export type StaffKiosksApi = ReturnType<typeof createStaffKiosksApi>;
