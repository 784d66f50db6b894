import type { ServerResponse } from 'node:http';
import type { ImageViewerResponse } from '@contract/api/image-viewer';
import type { PatientResult } from '@contract/api/results';
import { json, type RouteHandler } from '../../helpers/api-server';
import { BOOKING_KEY, signInServer, type SignInServerOptions } from '../patient-access/patient-access-fixtures';

export { BOOKING_KEY };

/** A signed image link shaped like the server's (v1.<kid>.<payload>.<tag>) with the given times (Unix ms). */
export function imsec(iat: number, ttlMs: number, nonce = 'n1'): string {
  const payload = Buffer.from(
    JSON.stringify({ v: 1, kid: 'k1', purpose: 'result.images', aud: 'portal', sub: '1.2.3', iat, exp: iat + ttlMs, nonce }),
    'utf8',
  ).toString('base64url');
  return `v1.k1.${payload}.${'A'.repeat(43)}`;
}

/** How long the fake's image links live. */
export const LINK_TTL_MS = 10 * 60_000;

const APPOINTMENT = {
  examName: 'MRI knee',
  clinicName: 'Parramatta Imaging',
  // 09:30 in Sydney (AEDT, UTC+11) on Tuesday 1 December 2026.
  startsAt: '2026-11-30T22:30:00.000Z',
  timeZone: 'Australia/Sydney',
  patientFirstName: 'Liam',
};

export type ReleasedResult = Extract<PatientResult, { state: 'RELEASED' }>;

export function releasedResult(overrides: Partial<ReleasedResult> = {}): ReleasedResult {
  return {
    state: 'RELEASED',
    appointment: APPOINTMENT,
    accessionNumber: 'ACC-1001',
    reportText:
      'CLINICAL HISTORY:\nKnee pain after a fall.\n\nFINDINGS:\nNo tear of the menisci.\n<b>Not bold</b> <script>window.pwned = true</script>\n\nCONCLUSION:\nNormal study.',
    // 10:15 in Sydney on Thursday 3 December 2026.
    reportedAt: '2026-12-02T23:15:00.000Z',
    referrerName: 'Dr Alice Referrer',
    pdfSizeBytes: 48_213,
    imageViewerLink: imsec(Date.parse('2026-12-10T00:00:00.000Z'), LINK_TTL_MS),
    ...overrides,
  };
}

export const NOT_RELEASED: PatientResult = {
  state: 'NOT_RELEASED',
  appointment: APPOINTMENT,
  // 9:00 am in Sydney on Thursday 10 December 2026.
  releaseAt: '2026-12-09T22:00:00.000Z',
};

export const NOT_AVAILABLE: PatientResult = { state: 'NOT_AVAILABLE', appointment: APPOINTMENT };

export function viewerAnswer(overrides: Partial<ImageViewerResponse> = {}): ImageViewerResponse {
  return {
    url: 'https://viewer.example/study?token=abc',
    imageViewerLinkStatus: 'ACTIVE',
    redirectUrl: null,
    preference: 'VIEWER',
    pacsUrl: null,
    ...overrides,
  };
}

type Answer = (response: ServerResponse) => void;

export interface ResultServerOptions {
  /** Answers of GET /api/results/{key}, one per call (the last repeats). */
  results?: (PatientResult | Answer)[];
  /** Answers of GET /api/image_viewer, one per call (the last repeats). */
  viewer?: (ImageViewerResponse | Answer)[];
  signIn?: SignInServerOptions;
}

export interface ResultServer {
  routes: Record<string, RouteHandler>;
  /** The input of each GET /api/image_viewer, in order. */
  viewerInputs: string[];
}

function nth<T>(list: readonly T[], index: number): T | undefined {
  return list[Math.min(index, list.length - 1)];
}

/**
 * A stand-in for the result and image viewer API (src-contract/api/results.ts, image-viewer.ts)
 * beside the sign-in API, over real HTTP. Signed in to the result (APPOINTMENT_RESULTS) unless told otherwise.
 */
/** A small glossary, as GET /api/results-glossary answers it. */
export const GLOSSARY = {
  terms: [
    { term: 'meniscus', definition: 'A C-shaped pad of cartilage in the knee that cushions the joint.' },
    { term: 'unremarkable', definition: 'Normal: nothing of concern was seen.' },
  ],
};

export function resultServer(options: ResultServerOptions = {}): ResultServer {
  const signIn = signInServer({ signedIn: true, sessionType: 'APPOINTMENT_RESULTS', ...options.signIn });
  const results = options.results ?? [releasedResult()];
  const viewer = options.viewer ?? [viewerAnswer()];
  const viewerInputs: string[] = [];
  let resultCalls = 0;
  let viewerCalls = 0;
  const reply = (response: ServerResponse, value: PatientResult | ImageViewerResponse | Answer | undefined) => {
    if (typeof value === 'function') value(response);
    else json(response, 200, value);
  };
  return {
    viewerInputs,
    routes: {
      ...signIn.routes,
      [`GET /api/results/${BOOKING_KEY}`]: (_request, response) => reply(response, nth(results, resultCalls++)),
      [`GET /api/results/${BOOKING_KEY}/history`]: (_request, response) => json(response, 200, { historyAppointments: [] }),
      'GET /api/results-glossary': (_request, response) => json(response, 200, GLOSSARY),
      'GET /api/image_viewer': (request, response) => {
        viewerInputs.push(new URL(request.url ?? '/', 'http://test').searchParams.get('input') ?? '');
        reply(response, nth(viewer, viewerCalls++));
      },
    },
  };
}
