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
import { getParsed, postParsed } from '../../api/parsed-request';

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
      getParsed(http, PATH, FeedbackQuestionnaireResponseSchema, { params }),
    submit: async (params: FeedbackCredentials, body: FeedbackRequest): Promise<FeedbackSavedResponse> =>
      postParsed(http, PATH, FeedbackSavedResponseSchema, body, { params }),
    /** Staff (staff, admin): one page of feedback, newest first, and the summaries. */
    list: async (page: number, pageSize: number): Promise<FeedbackListResponse> =>
      getParsed(http, STAFF_PATH, FeedbackListResponseSchema, { params: { page, pageSize } }),
  };
}

export type ReferrerFeedbackApi = ReturnType<typeof createReferrerFeedbackApi>;
