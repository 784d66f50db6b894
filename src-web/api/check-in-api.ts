import { CheckInStatusSchema, type CheckInForm, type CheckInStatus } from '@contract/api/check-in';
import { CheckInChecklistSchema, type CheckInChecklist } from '@contract/api/check-in-checklist';
import { DoctorSearchResponseSchema, type ReferringDoctor } from '@contract/api/referring-doctors';
import type { ApiClient } from './client';
import { getParsed, postParsed } from './parsed-request';

/** Typed calls of digital check-in and the doctor search (src-contract/api/check-in.ts, referring-doctors.ts). */
export function createCheckInApi(client: ApiClient) {
  const { http } = client;
  const appointmentPath = (bookingKey: string) => `/api/secured/appointments/${encodeURIComponent(bookingKey)}`;
  const checkInPath = (bookingKey: string, slug: string) => `${appointmentPath(bookingKey)}/check-in/${encodeURIComponent(slug)}`;

  return {
    status: async (bookingKey: string, slug: string): Promise<CheckInStatus> => {
      const path = checkInPath(bookingKey, slug);
      return getParsed(http, path, CheckInStatusSchema);
    },
    prepare: async (bookingKey: string, slug: string, form: CheckInForm): Promise<CheckInStatus> => {
      const path = `${checkInPath(bookingKey, slug)}/prepare`;
      return postParsed(http, path, CheckInStatusSchema, form);
    },
    checkIn: async (bookingKey: string, slug: string): Promise<CheckInStatus> => {
      const path = checkInPath(bookingKey, slug);
      return postParsed(http, path, CheckInStatusSchema);
    },
    /** What is still to do before the scan (docs/rules/check-in.md#checklist). */
    checklist: async (bookingKey: string, slug: string): Promise<CheckInChecklist> => {
      const path = `${checkInPath(bookingKey, slug)}/checklist`;
      return getParsed(http, path, CheckInChecklistSchema);
    },
    /** `text` already normalised (normaliseDoctorSearch); `signal` cancels a search the patient typed past. */
    searchDoctors: async (bookingKey: string, text: string, signal: AbortSignal): Promise<ReferringDoctor[]> => {
      const path = `${appointmentPath(bookingKey)}/doctor_search/${encodeURIComponent(text)}`;
      return (await getParsed(http, path, DoctorSearchResponseSchema, { signal })).doctors;
    },
  };
}

export type CheckInApi = ReturnType<typeof createCheckInApi>;
