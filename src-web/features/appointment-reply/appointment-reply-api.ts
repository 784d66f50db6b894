import {
  APPOINTMENT_REPLY_API_PATH,
  APPOINTMENT_REPLY_CANCEL_PATH,
  APPOINTMENT_REPLY_CONFIRM_PATH,
  AppointmentReplyViewSchema,
  type AppointmentReplyView,
} from '@contract/api/appointment-reply';
import type { ApiClient } from '../../api/client';
import { getParsed, postParsed } from '../../api/parsed-request';

/**
 * Typed calls of the reminder's answer page (src-contract/api/appointment-reply.ts): the signed
 * token from the mail is the credential of each; no session is needed.
 */
export function createAppointmentReplyApi(client: ApiClient) {
  const { http } = client;
  return {
    /** The appointment the link names and the answers it allows; changes nothing. */
    view: async (token: string): Promise<AppointmentReplyView> =>
      getParsed(http, APPOINTMENT_REPLY_API_PATH, AppointmentReplyViewSchema, { params: { token } }),

    confirm: async (token: string): Promise<AppointmentReplyView> =>
      postParsed(http, APPOINTMENT_REPLY_CONFIRM_PATH, AppointmentReplyViewSchema, {}, { params: { token } }),

    cancel: async (token: string): Promise<AppointmentReplyView> =>
      postParsed(http, APPOINTMENT_REPLY_CANCEL_PATH, AppointmentReplyViewSchema, {}, { params: { token } }),
  };
}

export type AppointmentReplyApi = ReturnType<typeof createAppointmentReplyApi>;
