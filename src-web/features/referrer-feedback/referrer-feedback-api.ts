import {
  FeedbackListResponseSchema,
  FeedbackQuestionnaireResponseSchema,
  FeedbackSavedResponseSchema,
  type FeedbackListResponse,
  type FeedbackQuestionnaireResponse,
  type FeedbackRequest,
  type FeedbackSavedResponse,
} from '@contract/api/referrer-feedback';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

const PATH = '/api/image_viewer_link/questionnaires';
const STAFF_PATH = '/api/staff/referrer-feedback';

/** Whose report: the referrer's imsec, or the accession number for a signed-in referrer. */
export type FeedbackCredentials = { imsec: string } | { pacsAppointmentId: string };

/**
 * Typed calls of report-quality feedback (src-contract/api/referrer-feedback.ts): the report's
 * questionnaire (or alreadyProvided), and the answer. The imsec is the only credential on its
 * path; the accession path rides on the referrer's staff session cookie.
 */
export function createReferrerFeedbackApi(client: ApiClient) {
  const { http } = client;
  return {
    questionnaire: async (params: FeedbackCredentials): Promise<FeedbackQuestionnaireResponse> =>
      parseResponse(PATH, FeedbackQuestionnaireResponseSchema, (await http.get<unknown>(PATH, { params })).data),
    submit: async (params: FeedbackCredentials, body: FeedbackRequest): Promise<FeedbackSavedResponse> =>
      parseResponse(PATH, FeedbackSavedResponseSchema, (await http.post<unknown>(PATH, body, { params })).data),
    /** Staff (staff, admin): one page of feedback, newest first, and the summaries. */
    list: async (page: number, pageSize: number): Promise<FeedbackListResponse> =>
      parseResponse(STAFF_PATH, FeedbackListResponseSchema, (await http.get<unknown>(STAFF_PATH, { params: { page, pageSize } })).data),
  };
}

export type ReferrerFeedbackApi = ReturnType<typeof createReferrerFeedbackApi>;
