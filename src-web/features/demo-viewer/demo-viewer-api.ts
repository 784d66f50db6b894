import { DemoStudySchema, type DemoStudy } from '@contract/api/image-viewer';
import type { ApiClient } from '../../api/client';
import { fileUrl } from '../../api/file-url';
import { parseResponse } from '../../api/parse-response';

const STUDY_PATH = '/api/demo-viewer/study';

/**
 * Typed calls of the demo image viewer (src-contract/api/image-viewer.ts): the study a demo viewer
 * link opens, and its images' addresses. The link (a signed token) is the only credential: no
 * session, no cookie needed.
 */
export function createDemoViewerApi(client: ApiClient) {
  const { http } = client;
  return {
    /** The study the link names; a 403 ApiError for an expired or invalid link. */
    study: async (token: string): Promise<DemoStudy> =>
      parseResponse(STUDY_PATH, DemoStudySchema, (await http.get<unknown>(STUDY_PATH, { params: { token } })).data),

    /** Where image `index` of the link's study is (a PNG for an img element). */
    imageUrl: (index: number, token: string): string =>
      fileUrl(http, `/api/demo-viewer/images/${encodeURIComponent(String(index))}?token=${encodeURIComponent(token)}`),
  };
}

export type DemoViewerApi = ReturnType<typeof createDemoViewerApi>;
