import {
  ImageViewerDirectResponseSchema,
  ImageViewerResponseSchema,
  type ImageViewerDirectRequest,
  type ImageViewerResponse,
} from '@contract/api/image-viewer';
import {
  ImageGenerateAnswerSchema,
  ReferrerReportSchema,
  type ImageGenerateQuery,
  type ImageState,
  type ReferrerReport,
} from '@contract/api/quick-report';
import type { ApiClient } from './client';
import { fileUrl } from './file-url';
import { getParsed, postParsed } from './parsed-request';

const IMAGE_VIEWER = '/api/image_viewer';
const REPORT = '/api/image_viewer_link/report';
const GENERATE = '/api/image_viewer/generate';
const DIRECT = '/api/image_viewer/direct';

/**
 * Typed calls of the referrer's quick report (src-contract/api/quick-report.ts): the referrer
 * imsec is the credential of each; no session is needed (a signed-in referrer is named in the audit).
 */
export function createQuickReportApi(client: ApiClient) {
  const { http } = client;
  return {
    /** Where the images open for this link and archive: the viewer, the PACS portal, or (expired) a redirect. */
    imageViewer: async (imsec: string, repositorySource: string): Promise<ImageViewerResponse> =>
      getParsed(http, IMAGE_VIEWER, ImageViewerResponseSchema, { params: { input: imsec, repositorySource } }),

    /** The viewer's address itself, for a signed-in external user (/image-viewer-access): the browser goes straight there. */
    imageViewerDirect: async (request: ImageViewerDirectRequest): Promise<string> =>
      (await postParsed(http, DIRECT, ImageViewerDirectResponseSchema, request)).url,

    /** The report the link names, with its patient and the images' state. */
    report: async (imsec: string): Promise<ReferrerReport> => getParsed(http, REPORT, ReferrerReportSchema, { params: { imsec } }),

    /** Asks the PACS for the report's images; answers their state now. */
    generate: async (query: ImageGenerateQuery): Promise<ImageState> =>
      (await postParsed(http, GENERATE, ImageGenerateAnswerSchema, undefined, { params: query })).images,

    /** The report's PDF as a plain link: inline, or with download=true as an attachment. */
    pdfUrl: (imsec: string, download: boolean): string =>
      fileUrl(http, `${REPORT}.pdf?imsec=${encodeURIComponent(imsec)}${download ? '&download=true' : ''}`),
  };
}

export type QuickReportApi = ReturnType<typeof createQuickReportApi>;
