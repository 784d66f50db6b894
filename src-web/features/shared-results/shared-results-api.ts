import { SharedResultsSchema, type SharedResults } from '@contract/api/result-shares';
import type { ApiClient } from '../../api/client';
import { fileUrl } from '../../api/file-url';
import { getParsed } from '../../api/parsed-request';

const SHARED_RESULTS = '/api/shared-results';

/**
 * Typed calls of a contact's shared results (src-contract/api/result-shares.ts). The contact's
 * session is the same cookie a patient's is; its 401 is the shared page's to handle (sign in with
 * the share link), so these calls carry sharedSession and the client's 401 rule leaves them alone.
 * 410 share_revoked / share_expired arrive as ApiErrors with those codes.
 */
export function createSharedResultsApi(client: ApiClient) {
  const { http } = client;
  return {
    /** What was shared: one result (RESULT) or the released history (HISTORY), with who shared it. */
    sharedResults: async (): Promise<SharedResults> => getParsed(http, SHARED_RESULTS, SharedResultsSchema, { sharedSession: true }),

    /** A shared report's PDF as a plain link: inline, or with download=true as an attachment. */
    reportPdfUrl: (resultId: string, download: boolean): string =>
      fileUrl(http, `${SHARED_RESULTS}/${encodeURIComponent(resultId)}/report.pdf${download ? '?download=true' : ''}`),
  };
}

export type SharedResultsApi = ReturnType<typeof createSharedResultsApi>;
