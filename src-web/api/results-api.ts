import { ImageViewerResponseSchema, type ImageViewerResponse } from '@contract/api/image-viewer';
import {
  PatientMatchResponseSchema,
  PatientResultSchema,
  type PatientMatchRequest,
  type PatientMatchResponse,
  type PatientResult,
} from '@contract/api/results';
import { GlossarySchema, type Glossary } from '@contract/api/results-glossary';
import type { ApiClient } from './client';
import { fileUrl } from './file-url';
import { getParsed, postParsed } from './parsed-request';

const IMAGE_VIEWER_PATH = '/api/image_viewer';
const GLOSSARY_PATH = '/api/results-glossary';

/**
 * Typed calls of the patient's result (src-contract/api/results.ts) and the image viewer link
 * (src-contract/api/image-viewer.ts). The answers are checked against the contract schemas: this
 * module loads with the result page only, so zod costs the booking home nothing. A 401 on the
 * result follows the client's logout rule (docs/rules/patient-access.md#logout-on-401).
 */
export function createResultsApi(client: ApiClient) {
  const { http } = client;
  const base = (bookingKey: string) => `/api/results/${encodeURIComponent(bookingKey)}`;

  return {
    /** The result of the booking's appointment: RELEASED with the report, NOT_RELEASED with when, or NOT_AVAILABLE. */
    result: async (bookingKey: string): Promise<PatientResult> => {
      const path = base(bookingKey);
      return getParsed(http, path, PatientResultSchema);
    },

    /**
     * The report PDF as a plain link (the session cookie goes with it): inline to view it, or with
     * download=true, for which the server answers Content-Disposition: attachment.
     */
    reportPdfUrl: (bookingKey: string, download: boolean): string =>
      fileUrl(http, `${base(bookingKey)}/report.pdf${download ? '?download=true' : ''}`),

    /**
     * The patient match form (patient portal sessions only): the date of birth and e-mail or phone
     * again, answered with the earlier appointments; 404 patient_matching_error when none match.
     */
    patientMatch: async (bookingKey: string, body: PatientMatchRequest): Promise<PatientMatchResponse> => {
      const path = `${base(bookingKey)}/patient-match`;
      return postParsed(http, path, PatientMatchResponseSchema, body);
    },

    /** The earlier appointments of the signed-in booking's own patient (the results sign-in proved who they are). */
    history: async (bookingKey: string): Promise<PatientMatchResponse> => {
      const path = `${base(bookingKey)}/history`;
      return getParsed(http, path, PatientMatchResponseSchema);
    },

    /** The provider's glossary of radiology terms (public, cacheable): asked for only by a page that shows a report. */
    glossary: async (): Promise<Glossary> => getParsed(http, GLOSSARY_PATH, GlossarySchema),

    /** A released report of the history as a PDF link: inline, or with download=true as an attachment. */
    historyPdfUrl: (bookingKey: string, resultId: string, download: boolean): string =>
      fileUrl(http, `${base(bookingKey)}/history/${encodeURIComponent(resultId)}/report.pdf${download ? '?download=true' : ''}`),

    /** Where a signed image link (imsec) opens: the viewer, the PACS portal, or (expired) a redirect. */
    imageViewer: async (input: string): Promise<ImageViewerResponse> =>
      getParsed(http, IMAGE_VIEWER_PATH, ImageViewerResponseSchema, { params: { input } }),
  };
}

export type ResultsApi = ReturnType<typeof createResultsApi>;
