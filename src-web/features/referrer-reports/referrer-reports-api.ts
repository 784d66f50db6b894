import {
  REFERRER_REPORTS_PATH,
  ReferrerReportsPageSchema,
  type ReferrerReportSort,
  type ReferrerReportsPage,
  type SortOrder,
} from '@contract/api/referrer-reports';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/**
 * Typed call of GET /api/referrer/reports (src-contract/api/referrer-reports.ts,
 * docs/rules/referrers.md#referrer-report-list). A 401 concerns the staff session (`staffSession`).
 */
export function createReferrerReportsApi(client: ApiClient) {
  return {
    /** One page of the signed-in referrer's reports in a sort; `before` is the previous page's nextCursor in the same sort. */
    list: async (query: {
      search: string;
      before: string | null;
      sort: ReferrerReportSort;
      order: SortOrder;
    }): Promise<ReferrerReportsPage> => {
      const params: Record<string, string> = { sort: query.sort, order: query.order };
      if (query.search !== '') params.search = query.search;
      if (query.before !== null) params.before = query.before;
      const response = await client.http.get<unknown>(REFERRER_REPORTS_PATH, { params, staffSession: true });
      return parseResponse(REFERRER_REPORTS_PATH, ReferrerReportsPageSchema, response.data);
    },
  };
}

export type ReferrerReportsApi = ReturnType<typeof createReferrerReportsApi>;
