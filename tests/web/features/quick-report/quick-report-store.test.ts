import { afterEach, describe, expect, it } from 'vitest';
import type { ImageViewerResponse } from '@contract/api/image-viewer';
import type { ImageState, ReferrerReport } from '@contract/api/quick-report';
import { createApiClient } from '../../../../src-web/api/client';
import { createQuickReportApi } from '../../../../src-web/api/quick-report-api';
import { QuickReportStore } from '../../../../src-web/features/quick-report/quick-report-store';
import { json, startApiServer, type RouteHandler, type TestApiServer } from '../../helpers/api-server';

// The quick report page's store (docs/rules/referrers.md#quick-report) with the real API client
// over HTTP, against routes answering as the server does (src-server/modules/quick-report):
// EXPIRED follows its redirect, a PACS archive its portal, a study without images is asked for
// and polled until the viewer URL arrives, a FAILED generation or the 2-minute wait ends in the
// generation error, and each refusal has its own message.

const IMSEC = 'v1.e2e.payload.tag';
const REPORT: ReferrerReport = {
  accessionNumber: 'ACC-1',
  examName: 'X-ray knee',
  clinicName: 'Bondi Junction',
  startsAt: '2026-11-30T00:00:00.000Z',
  timeZone: 'Australia/Sydney',
  patient: { firstName: 'Oliver', lastName: 'Testwood', dateOfBirth: '1957-01-30' },
  referrerName: 'Dr Riley Referrer',
  reportText: 'XR LEFT KNEE',
  reportedAt: '2026-11-26T00:00:00.000Z',
  images: 'NOT_GENERATED',
  pacsUrl: null,
};
const ACTIVE = (url: string | null, images: ImageState = url === null ? 'GENERATING' : 'AVAILABLE'): ImageViewerResponse => ({
  url,
  imageViewerLinkStatus: 'ACTIVE',
  redirectUrl: null,
  preference: 'VIEWER',
  pacsUrl: null,
  images,
});

const servers: TestApiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The store over HTTP; `viewerAnswers` are the image viewer's answers in turn (the last repeats). */
async function storeWith(options: {
  viewerAnswers: ImageViewerResponse[];
  report?: ReferrerReport;
  generate?: ImageState;
  routes?: Record<string, RouteHandler>;
}) {
  const generated: string[] = [];
  let call = 0;
  const server = await startApiServer({
    'GET /api/image_viewer': (_request, response) => {
      const answer = options.viewerAnswers[Math.min(call, options.viewerAnswers.length - 1)];
      call += 1;
      json(response, 200, answer);
    },
    'GET /api/image_viewer_link/report': (_request, response) => json(response, 200, options.report ?? REPORT),
    'POST /api/image_viewer/generate': (request, response) => {
      generated.push(request.url ?? '');
      json(response, 202, { images: options.generate ?? 'GENERATING' });
    },
    ...options.routes,
  });
  servers.push(server);
  let now = 0;
  const navigated: string[] = [];
  const assigned: string[] = [];
  const store = new QuickReportStore({
    api: createQuickReportApi(createApiClient(server.url)),
    navigator: () => ({ navigate: (to) => navigated.push(to), currentUrl: () => '/referrer/quick-report' }),
    assign: (url) => assigned.push(url),
    now: () => now,
    // Each poll's wait moves the clock on by that much, at once.
    sleep: async (ms) => {
      now += ms;
    },
  });
  return { store, generated, navigated, assigned, viewerCalls: () => call };
}

describe('quick report store', () => {
  it('shows the report and frames the built-in viewer under /iframe (without the portal around it)', async () => {
    const { store } = await storeWith({
      viewerAnswers: [ACTIVE('/demo-viewer?study=1.2&token=t')],
      report: { ...REPORT, images: 'AVAILABLE' },
    });
    await store.open(IMSEC, null);
    expect(store.state).toBe('ready');
    expect(store.report?.patient.lastName).toBe('Testwood');
    expect(store.images).toBe('viewer');
    expect(store.frameUrl).toBe('/iframe/demo-viewer?study=1.2&token=t&fit=frame');
    expect(store.viewerUrl).toBe('/demo-viewer?study=1.2&token=t');
    expect(store.pdfUrl(true)).toMatch(/\/api\/image_viewer_link\/report\.pdf\?imsec=v1\.e2e\.payload\.tag&download=true$/);
    expect(store.feedbackPath).toBe(`/referrer/report-feedback?imsec=${encodeURIComponent(IMSEC)}&repositorySource=default&return=report`);
  });

  it('opened from the list, sends the feedback page back to this report and the list mark; a PACS viewer is framed as it is', async () => {
    const { store } = await storeWith({ viewerAnswers: [ACTIVE('https://pacs.example.com/viewer?s=1')] });
    await store.open(IMSEC, 'archive', true);
    expect(store.fromList).toBe(true);
    expect(store.frameUrl).toBe('https://pacs.example.com/viewer?s=1');
    expect(store.feedbackPath).toBe(
      `/referrer/report-feedback?imsec=${encodeURIComponent(IMSEC)}&repositorySource=archive&return=report&from=list`,
    );
    await store.retry();
    expect(store.fromList).toBe(true);
  });

  it('asks for images a study does not have yet, and polls until the viewer URL arrives', async () => {
    const { store, generated, viewerCalls } = await storeWith({
      viewerAnswers: [ACTIVE(null, 'NOT_GENERATED'), ACTIVE(null), ACTIVE(null), ACTIVE('https://pacs.example.com/viewer?s=1')],
    });
    await store.open(IMSEC, 'default');
    expect(generated).toHaveLength(1);
    expect(new URL(generated[0] ?? '', 'http://x').searchParams.get('accessionNumber')).toBe('ACC-1');
    expect(viewerCalls()).toBe(4);
    expect(store.images).toBe('viewer');
    expect(store.frameUrl).toBe('https://pacs.example.com/viewer?s=1');
  });

  it('ends in the generation error when the PACS fails, or when the images do not come within 2 minutes; asking again starts over', async () => {
    const failed = await storeWith({ viewerAnswers: [ACTIVE(null, 'NOT_GENERATED'), ACTIVE(null, 'FAILED')] });
    await failed.store.open(IMSEC, null);
    expect(failed.store.images).toBe('generationError');

    const slow = await storeWith({ viewerAnswers: [ACTIVE(null, 'NOT_GENERATED'), ACTIVE(null)] });
    await slow.store.open(IMSEC, null);
    expect(slow.store.images).toBe('generationError');
    // 2 minutes of 2-second polls.
    expect(slow.viewerCalls()).toBe(1 + 60);
    await slow.store.retryImages();
    expect(slow.generated).toHaveLength(2);
  });

  it('shows a report whose generation failed before with the generation error, without asking again', async () => {
    const { store, generated } = await storeWith({ viewerAnswers: [ACTIVE(null, 'FAILED')], report: { ...REPORT, images: 'FAILED' } });
    await store.open(IMSEC, null);
    expect(store.images).toBe('generationError');
    expect(generated).toHaveLength(0);
  });

  it("follows an EXPIRED link's redirect, and a PACS archive's portal", async () => {
    const expired = await storeWith({
      viewerAnswers: [{ ...ACTIVE(null), imageViewerLinkStatus: 'EXPIRED', redirectUrl: '/deny?resultsExpired=true' }],
    });
    await expired.store.open(IMSEC, null);
    expect(expired.navigated).toEqual(['/deny?resultsExpired=true']);
    expect(expired.store.state).toBe('leaving');

    // A report link past its lifetime: the server's image_link_expired (410) leaves for the same page.
    const gone: RouteHandler = (_request, response) =>
      json(response, 410, { code: 'image_link_expired', message: 'This report link has expired.' });
    const expiredReport = await storeWith({ viewerAnswers: [ACTIVE(null)], routes: { 'GET /api/image_viewer_link/report': gone } });
    await expiredReport.store.open(IMSEC, null);
    expect(expiredReport.navigated).toEqual(['/deny?resultsExpired=true']);

    const pacs = await storeWith({
      viewerAnswers: [{ ...ACTIVE(null), preference: 'PACS', pacsUrl: 'https://archive.example.com/portal' }],
    });
    await pacs.store.open(IMSEC, 'archive');
    expect(pacs.assigned).toEqual(['https://archive.example.com/portal']);
  });

  it('says no credentials without a link, no access on 403, and offers a retry when the call failed', async () => {
    const none = await storeWith({ viewerAnswers: [ACTIVE(null)] });
    await none.store.open(null, null);
    expect([none.store.state, none.store.problem]).toEqual(['error', 'noCredentials']);

    const refusal: RouteHandler = (_request, response) => json(response, 403, { code: 'user_not_have_access_to_images', message: 'No.' });
    const refused = await storeWith({ viewerAnswers: [], routes: { 'GET /api/image_viewer': refusal } });
    await refused.store.open(IMSEC, null);
    expect(refused.store.problem).toBe('noAccess');

    const broken: RouteHandler = (_request, response) => json(response, 500, { code: 'internal_error', message: 'Oops.' });
    const failing = await storeWith({ viewerAnswers: [ACTIVE(null)], routes: { 'GET /api/image_viewer_link/report': broken } });
    await failing.store.open(IMSEC, null);
    expect(failing.store.problem).toBe('failed');
  });
});
