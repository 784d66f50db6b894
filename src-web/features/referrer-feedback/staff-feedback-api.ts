import {
  FEEDBACK_CSV_ROWS_HEADER,
  FeedbackListResponseSchema,
  type FeedbackFilterInput,
  type FeedbackListResponse,
} from '@contract/api/referrer-feedback';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

const LIST_PATH = '/api/staff/referrer-feedback';
const CSV_PATH = '/api/staff/referrer-feedback.csv';

/** The file the server names in content-disposition, else a plain one. */
function fileNameOf(disposition: unknown): string {
  const match = typeof disposition === 'string' ? /filename="([^"]+)"/.exec(disposition) : null;
  return match?.[1] ?? 'referrer-feedback.csv';
}

/**
 * Typed calls of the staff feedback table (staff, admin; src-contract/api/referrer-feedback.ts):
 * a page of the filter, and the filter's CSV. A 401 concerns the staff session, not a patient's.
 */
export function createStaffFeedbackApi(client: ApiClient) {
  const { http } = client;
  return {
    list: async (query: FeedbackFilterInput & { page: number; pageSize: number }): Promise<FeedbackListResponse> =>
      parseResponse(
        LIST_PATH,
        FeedbackListResponseSchema,
        (await http.get<unknown>(LIST_PATH, { params: query, staffSession: true })).data,
      ),
    /** The CSV as the server made it (bytes kept: its BOM is what Excel needs). */
    exportCsv: async (filter: FeedbackFilterInput): Promise<{ blob: Blob; fileName: string; rows: number }> => {
      const response = await http.get<Blob>(CSV_PATH, { params: filter, responseType: 'blob', staffSession: true });
      const rows = Number(response.headers[FEEDBACK_CSV_ROWS_HEADER] ?? 0);
      return { blob: response.data, fileName: fileNameOf(response.headers['content-disposition']), rows: Number.isFinite(rows) ? rows : 0 };
    },
  };
}

export type StaffFeedbackApi = ReturnType<typeof createStaffFeedbackApi>;
