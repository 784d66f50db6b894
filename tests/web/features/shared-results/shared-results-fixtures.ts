import type { ServerResponse } from 'node:http';
import type { SharedResults } from '@contract/api/result-shares';
import { json, type RouteHandler } from '../../helpers/api-server';
import { CODE, SHARE_TOKEN, signInServer, type SignInServerOptions } from '../patient-access/patient-access-fixtures';
import { imsec, LINK_TTL_MS, viewerAnswer } from '../results/results-fixtures';

export { SHARE_TOKEN };

export const RESULT_ID = '6f1d3c1e-8a4b-4c55-9a7e-2b1f0c9d8e71';

export function sharedResults(overrides: Partial<SharedResults> = {}): SharedResults {
  return {
    type: 'RESULT',
    results: [
      {
        resultId: RESULT_ID,
        examName: 'MRI knee',
        clinicName: 'Parramatta Imaging',
        startsAt: '2026-11-30T22:30:00.000Z',
        timeZone: 'Australia/Sydney',
        reportText: 'FINDINGS:\nNo tear of the menisci.\n\nCONCLUSION:\n<b>Normal</b> study.',
        reportedAt: '2026-12-02T23:15:00.000Z',
        referrerName: 'Dr Alice Referrer',
        imageViewerLink: imsec(Date.parse('2026-12-10T00:00:00.000Z'), LINK_TTL_MS),
      },
    ],
    patientFirstName: 'Liam',
    sharedBy: 'Liam E.',
    ...overrides,
  };
}

type Answer = (response: ServerResponse) => void;

export interface SharedServerOptions {
  /** Answers of GET /api/shared-results, one per call (the last repeats); default: signed-in answers after sign-in, 401 before. */
  shared?: (SharedResults | Answer)[];
  signIn?: SignInServerOptions;
}

/**
 * A stand-in for the contact's side (src-contract/api/result-shares.ts) beside the sign-in API and
 * the image viewer, over real HTTP. Without fixed answers, GET /api/shared-results answers 401
 * until the contact has signed in with the share link and the code.
 */
export function sharedServer(options: SharedServerOptions = {}) {
  const signIn = signInServer({ signedIn: false, ...options.signIn });
  let calls = 0;
  const viewerInputs: string[] = [];
  const routes: Record<string, RouteHandler> = {
    ...signIn.routes,
    'GET /api/shared-results': (_request, response) => {
      const fixed = options.shared;
      if (fixed) {
        const value = fixed[Math.min(calls++, fixed.length - 1)];
        if (typeof value === 'function') return value(response);
        return json(response, 200, value);
      }
      const verified = signIn.bodies.some((body) => body.path === 'verify' && (body.body as { code?: string }).code === CODE);
      if (verified) return json(response, 200, sharedResults());
      json(response, 401, { code: 'unauthorized', message: 'Please sign in.' });
    },
    'GET /api/image_viewer': (request, response) => {
      viewerInputs.push(new URL(request.url ?? '/', 'http://test').searchParams.get('input') ?? '');
      json(response, 200, viewerAnswer());
    },
  };
  return { routes, signIn, viewerInputs };
}
