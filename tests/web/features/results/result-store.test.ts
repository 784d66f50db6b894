import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-web/api/client';
import { createPatientAccessApi } from '../../../../src-web/api/patient-access-api';
import { createResultsApi } from '../../../../src-web/api/results-api';
import { PatientAccessStore } from '../../../../src-web/features/patient-access/patient-access-store';
import { isLinkStale, linkLifetimeMs } from '../../../../src-web/features/results/image-link';
import { ResultStore, type ResultSignInType } from '../../../../src-web/features/results/result-store';
import { SessionStore } from '../../../../src-web/stores/session-store';
import { json, startApiServer } from '../../helpers/api-server';
import { answer } from '../patient-access/patient-access-fixtures';
import { recordingNavigator } from '../patient-access/patient-access-setup';
import {
  BOOKING_KEY,
  imsec,
  LINK_TTL_MS,
  NOT_AVAILABLE,
  NOT_RELEASED,
  releasedResult,
  resultServer,
  viewerAnswer,
  type ResultServerOptions,
} from './results-fixtures';

/** The browser's clock when the result arrives; the fake's links were issued at this moment (server clock). */
const LOADED_AT = Date.parse('2026-12-10T00:00:00.000Z');

interface Options extends ResultServerOptions {
  url?: string;
  /** The browser's clock, in ms after LOADED_AT, at each call of now(). */
  clock?: { at: number };
}

/**
 * The result store wired as root-store.ts wires it: the real session and patient-access stores
 * and API modules over a fake HTTP server; only the browser's window (leaving the app) is recorded.
 */
async function setup(options: Options = {}) {
  const fake = resultServer(options);
  const server = await startApiServer(fake.routes);
  const client = createApiClient(server.url);
  const navigator = recordingNavigator(options.url ?? `/appointments/${BOOKING_KEY}/result`);
  const session = new SessionStore(() => navigator);
  client.setSessionHandlers({ logout: () => session.logout(), reauthenticate: () => session.reauthenticate() });
  const access = new PatientAccessStore({
    api: createPatientAccessApi(client),
    session,
    navigator: () => navigator,
    otpResendSeconds: () => 5,
    today: () => '2026-12-10',
    cookiesEnabled: () => true,
    applyTranslations: () => undefined,
    scrollToTop: () => undefined,
  });
  const left: { how: 'same tab' | 'new tab'; url: string }[] = [];
  const clock = options.clock ?? { at: 0 };
  const store = new ResultStore({
    api: createResultsApi(client),
    ensureSignedIn: (bookingKey, type) => access.ensureSignedIn(bookingKey, type),
    navigator: () => navigator,
    browser: {
      assign: (url) => left.push({ how: 'same tab', url }),
      openInNewTab: (url) => left.push({ how: 'new tab', url }),
    },
    now: () => LOADED_AT + clock.at,
  });
  const requests = () => server.requests.map((request) => `${request.method} ${request.url?.split('?')[0]}`);
  return { store, fake, navigator, left, clock, requests, server };
}

async function opened(options: Options = {}, type: ResultSignInType = 'APPOINTMENT_RESULTS') {
  const context = await setup(options);
  await context.store.open(BOOKING_KEY, type);
  return context;
}

describe('ResultStore: loading the result', () => {
  it('should check the session for the result type and load nothing but send the patient to sign in when there is none', async () => {
    const { store, navigator, requests, server } = await opened({ signIn: { signedIn: false } });
    expect(store.result).toBeNull();
    expect(store.loadState).toBe('idle');
    expect(requests()).toEqual(['GET /api/patient-access/session']);
    expect(server.requests[0]?.url).toContain('type=APPOINTMENT_RESULTS');
    const returnUrl = encodeURIComponent(`/appointments/${BOOKING_KEY}/result`);
    expect(navigator.visited).toEqual([
      { to: `/authentication?returnUrl=${returnUrl}&bookingKey=${BOOKING_KEY}&type=APPOINTMENT_RESULTS`, replace: true },
    ]);
  });

  it('should refuse a session of another type: an appointment session does not open the result', async () => {
    const { store, navigator } = await opened({ signIn: { signedIn: true, sessionType: 'APPOINTMENT' } });
    expect(store.result).toBeNull();
    expect(navigator.visited[0]?.to).toMatch(/^\/authentication\?.*type=APPOINTMENT_RESULTS$/);
  });

  it('should send the patient portal link to sign in with its date of birth and code channel', async () => {
    const url = `/iframe/appointments/${BOOKING_KEY}/result/patient?dateOfBirth=1991-03-14&otpType=SMS`;
    const { navigator, server } = await opened({ url, signIn: { signedIn: false } }, 'PATIENT_PORTAL');
    expect(server.requests[0]?.url).toContain('type=PATIENT_PORTAL');
    expect(navigator.visited[0]?.to).toBe(
      `/iframe/authentication?returnUrl=${encodeURIComponent(url)}&bookingKey=${BOOKING_KEY}&type=PATIENT_PORTAL&dateOfBirth=1991-03-14&otpType=SMS`,
    );
  });

  it.each([
    ['RELEASED', releasedResult()],
    ['NOT_RELEASED', NOT_RELEASED],
    ['NOT_AVAILABLE', NOT_AVAILABLE],
  ] as const)('should hold a %s result once loaded', async (state, result) => {
    const { store } = await opened({ results: [result] });
    expect(store.loadState).toBe('loaded');
    expect(store.result?.state).toBe(state);
    expect(store.imageViewerLink !== null).toBe(state === 'RELEASED');
  });

  it('should open with a PATIENT_PORTAL session', async () => {
    const { store } = await opened({ signIn: { signedIn: true, sessionType: 'PATIENT_PORTAL' } }, 'PATIENT_PORTAL');
    expect(store.result?.state).toBe('RELEASED');
  });

  it('should show the load error and load again on retry', async () => {
    const { store } = await opened({ results: [answer(503, { code: 'service_unavailable', message: 'Down' }), releasedResult()] });
    expect(store.loadState).toBe('error');
    expect(store.result).toBeNull();
    await store.retry();
    expect(store.loadState).toBe('loaded');
    expect(store.result?.state).toBe('RELEASED');
  });

  it('should treat an answer that breaks the contract as a load error, not a crash', async () => {
    const { store } = await opened({ results: [(response) => json(response, 200, { state: 'RELEASED', reportText: 'x' })] });
    expect(store.loadState).toBe('error');
  });

  it('should go to sign-in when the session ended before the result loaded (401)', async () => {
    const { store, navigator } = await opened({ results: [answer(401, { code: 'unauthorized', message: 'Please sign in.' })] });
    expect(store.result).toBeNull();
    expect(navigator.visited[0]?.to).toMatch(/^\/authentication\?returnUrl=.*&type=APPOINTMENT_RESULTS$/);
  });

  it('should give the report links: inline to view, download=true to download', async () => {
    const { store, server } = await opened();
    expect(store.reportPdfUrl(false)).toBe(`${server.url}/api/results/${BOOKING_KEY}/report.pdf`);
    expect(store.reportPdfUrl(true)).toBe(`${server.url}/api/results/${BOOKING_KEY}/report.pdf?download=true`);
  });
});

describe('ResultStore: opening the images', () => {
  it('should send the browser to the viewer in the same tab', async () => {
    const { store, left, fake } = await opened();
    await store.openImages();
    expect(fake.viewerInputs).toEqual([releasedResult().imageViewerLink]);
    expect(left).toEqual([{ how: 'same tab', url: 'https://viewer.example/study?token=abc' }]);
    expect(store.openingImages).toBe(false);
    expect(store.imagesProblem).toBeNull();
  });

  it('should open the viewer in a new top-level tab from inside /iframe', async () => {
    const { store, left } = await opened({ url: `/iframe/appointments/${BOOKING_KEY}/result` });
    await store.openImages();
    expect(left).toEqual([{ how: 'new tab', url: 'https://viewer.example/study?token=abc' }]);
  });

  it("should go to the PACS portal when that is the provider's preference", async () => {
    const { store, left } = await opened({ viewer: [viewerAnswer({ preference: 'PACS', pacsUrl: 'https://pacs.example/portal' })] });
    await store.openImages();
    expect(left).toEqual([{ how: 'same tab', url: 'https://pacs.example/portal' }]);
  });

  it('should follow an expired link to its redirect through the router, inside /iframe when embedded', async () => {
    const expired = viewerAnswer({ url: null, imageViewerLinkStatus: 'EXPIRED', redirectUrl: '/deny?resultsExpired=true' });
    const top = await opened({ viewer: [expired] });
    top.clock.at = LINK_TTL_MS; // stale: a fresh link first, which the server still calls expired
    await top.store.openImages();
    expect(top.navigator.visited).toEqual([{ to: '/deny?resultsExpired=true', replace: undefined }]);
    expect(top.left).toEqual([]);

    const framed = await opened({ viewer: [expired], url: `/iframe/appointments/${BOOKING_KEY}/result` });
    framed.clock.at = LINK_TTL_MS;
    await framed.store.openImages();
    expect(framed.navigator.visited.map((visit) => visit.to)).toEqual(['/iframe/deny?resultsExpired=true']);
  });

  it('should say no images URL could be made (message.error_generating_images_url)', async () => {
    const { store, left } = await opened({ viewer: [viewerAnswer({ url: null })] });
    await store.openImages();
    expect(store.imagesProblem).toBe('noUrl');
    expect(left).toEqual([]);
  });

  it('should never send the browser to a script URL the answer names', async () => {
    const { store, left } = await opened({ viewer: [viewerAnswer({ url: 'javascript:alert(1)' })] });
    await store.openImages();
    expect(store.imagesProblem).toBe('noUrl');
    expect(left).toEqual([]);
  });

  it('should say there is no access on a 403 (message.user_not_have_access_to_images), and a generic failure otherwise', async () => {
    const denied = await opened({ viewer: [answer(403, { code: 'forbidden', message: 'No access' })] });
    await denied.store.openImages();
    expect(denied.store.imagesProblem).toBe('noAccess');

    const broken = await opened({ viewer: [answer(500, { code: 'internal_error', message: 'Oops' })] });
    await broken.store.openImages();
    expect(broken.store.imagesProblem).toBe('failed');
    expect(broken.store.openingImages).toBe(false);
  });

  it('should load the result again for a new link when the page sat open longer than the link lives', async () => {
    const later = releasedResult({ imageViewerLink: imsec(LOADED_AT + LINK_TTL_MS, LINK_TTL_MS, 'n2') });
    const { store, fake, clock, requests, left } = await opened({ results: [releasedResult(), later] });
    clock.at = LINK_TTL_MS - 1_000;
    await store.openImages();
    expect(requests().slice(-2)).toEqual([`GET /api/results/${BOOKING_KEY}`, 'GET /api/image_viewer']);
    expect(fake.viewerInputs).toEqual([later.imageViewerLink]);
    expect(left).toHaveLength(1);

    // The new link is fresh again: no further reload.
    await store.openImages();
    expect(requests().filter((request) => request === `GET /api/results/${BOOKING_KEY}`)).toHaveLength(2);
  });

  it('should use a fresh link as it is', async () => {
    const { store, clock, requests } = await opened();
    clock.at = 60_000;
    await store.openImages();
    expect(requests().filter((request) => request === `GET /api/results/${BOOKING_KEY}`)).toHaveLength(1);
  });

  it('should replace a link the server calls expired once, then open the viewer', async () => {
    const expired = viewerAnswer({ url: null, imageViewerLinkStatus: 'EXPIRED', redirectUrl: '/deny?resultsExpired=true' });
    const { store, left, navigator, fake } = await opened({ viewer: [expired, viewerAnswer()] });
    await store.openImages();
    expect(fake.viewerInputs).toHaveLength(2);
    expect(navigator.visited).toEqual([]);
    expect(left).toEqual([{ how: 'same tab', url: 'https://viewer.example/study?token=abc' }]);
  });

  it('should do nothing for a report without a study', async () => {
    const { store, fake } = await opened({ results: [releasedResult({ imageViewerLink: null })] });
    expect(store.imageViewerLink).toBeNull();
    await store.openImages();
    expect(fake.viewerInputs).toEqual([]);
  });
});

describe('image link lifetime', () => {
  it("should read the lifetime from the link's payload and fall back to a minute", () => {
    expect(linkLifetimeMs(imsec(1_000, LINK_TTL_MS))).toBe(LINK_TTL_MS);
    expect(linkLifetimeMs('v1.k1.not-json.tag')).toBe(60_000);
    expect(linkLifetimeMs('garbage')).toBe(60_000);
  });

  it('should call a link stale 30 seconds before it ends, or a quarter of its life for short links', () => {
    const link = imsec(0, LINK_TTL_MS);
    expect(isLinkStale(link, 0, LINK_TTL_MS - 30_001)).toBe(false);
    expect(isLinkStale(link, 0, LINK_TTL_MS - 30_000)).toBe(true);
    const short = imsec(0, 40_000);
    expect(isLinkStale(short, 0, 29_999)).toBe(false);
    expect(isLinkStale(short, 0, 30_000)).toBe(true);
  });
});
