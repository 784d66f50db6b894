import { CheckInStatusSchema, type CheckInStatus } from '@contract/api/check-in';
import {
  CheckInIdentityResponseSchema,
  KioskIdentitySchema,
  type CheckInIdentityRequest,
  type CheckInIdentityResponse,
  type KioskIdentity,
} from '@contract/api/kiosks';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/**
 * Typed calls of the kiosk's own API (src-contract/api/kiosks.ts, docs/rules/kiosk.md#enrollment).
 * The kiosk's token is an HttpOnly cookie the browser sends by itself; a revoked or unknown kiosk
 * answers 401 kiosk_not_enrolled on every one of them.
 */
export function createKioskApi(client: ApiClient) {
  const { http } = client;
  return {
    /** This kiosk's name and clinic; 401 kiosk_not_enrolled when it holds no (valid) token. */
    me: async (): Promise<KioskIdentity> => {
      const path = '/api/kiosk/me';
      return parseResponse(path, KioskIdentitySchema, (await http.get(path)).data);
    },
    /** Enrolls with a one-time code (any case, dash optional); the answer sets the kiosk's cookie. */
    enroll: async (code: string): Promise<KioskIdentity> => {
      const path = '/api/kiosk/enroll';
      return parseResponse(path, KioskIdentitySchema, (await http.post(path, { code })).data);
    },
    /** Today's bookings for a last name, or a scanned booking code's key, and date of birth (YYYY-MM-DD); 429 past the look-up limits. */
    identity: async (body: CheckInIdentityRequest): Promise<CheckInIdentityResponse> => {
      const path = '/api/kiosk/check-in/identity';
      return parseResponse(path, CheckInIdentityResponseSchema, (await http.post(path, body)).data);
    },
    /** Checks one appointment in (needs the patient's APPOINTMENT session too); poll its status after. */
    checkIn: async (bookingKey: string, appointmentSlug: string): Promise<CheckInStatus> => {
      const path = `/api/kiosk/check-in/${encodeURIComponent(bookingKey)}/${encodeURIComponent(appointmentSlug)}`;
      return parseResponse(path, CheckInStatusSchema, (await http.post(path)).data);
    },
  };
}

export type KioskApi = ReturnType<typeof createKioskApi>;
