import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-web/api/client';
import { createResultsApi } from '../../../../src-web/api/results-api';
import { HistoryStore } from '../../../../src-web/features/results/history-store';
import { SessionStore } from '../../../../src-web/stores/session-store';
import { json, startApiServer } from '../../helpers/api-server';
import { answer } from '../patient-access/patient-access-fixtures';
import { recordingNavigator } from '../patient-access/patient-access-setup';
import { historyRoute, PENDING_HISTORY, RELEASED_ID, releasedHistory } from './history-fixtures';
import { BOOKING_KEY, imsec, LINK_TTL_MS, viewerAnswer } from './results-fixtures';

const LOADED_AT = Date.parse('2026-12-10T00:00:00.000Z');
type HistoryAnswers = Parameters<typeof historyRoute>[0];

async function setup(answers: HistoryAnswers = [{ historyAppointments: [releasedHistory(), PENDING_HISTORY] }], clock = { at: 0 }) {
  const history = historyRoute(answers);
  const viewerInputs: string[] = [];
  const server = await startApiServer({
    ...history.routes,
    'GET /api/image_viewer': (request, response) => {
      viewerInputs.push(new URL(request.url ?? '/', 'http://test').searchParams.get('input') ?? '');
      json(response, 200, viewerAnswer());
    },
  });
  const client = createApiClient(server.url);
  const navigator = recordingNavigator(`/appointments/${BOOKING_KEY}/result/patient`);
  const session = new SessionStore(() => navigator);
  client.setSessionHandlers({ logout: () => session.logout(), reauthenticate: () => session.reauthenticate() });
  const left: string[] = [];
  const remembered: [string, string][] = [];
  const store = new HistoryStore({
    api: createResultsApi(client),
    navigator: () => navigator,
    browser: {
      assign: (url) => left.push(url),
      openInNewTab: (url) => left.push(`new tab: ${url}`),
      rememberReturn: (label, back) => remembered.push([label, back]),
    },
    now: () => LOADED_AT + clock.at,
  });
  return { store, history, server, left, viewerInputs, navigator, remembered };
}

describe('HistoryStore: the earlier results of the signed-in patient', () => {
  it('should load the list with the page, nothing asked: released and not yet released', async () => {
    const { store, server, history } = await setup();
    await store.start(BOOKING_KEY);
    expect(history.calls.count).toBe(1);
    expect(store.items?.map((item) => [item.appointment.examName, item.appointment.state])).toEqual([
      ['XR chest', 'RELEASED'],
      ['US abdomen', 'NOT_RELEASED'],
    ]);
    const [released] = store.items ?? [];
    if (!released) throw new Error('no item');
    expect(store.pdfUrl(released, false)).toBe(`${server.url}/api/results/${BOOKING_KEY}/history/${RELEASED_ID}/report.pdf`);
    expect(store.pdfUrl(released, true)).toBe(`${server.url}/api/results/${BOOKING_KEY}/history/${RELEASED_ID}/report.pdf?download=true`);
    expect(store.failed).toBe(false);
    expect(store.loading).toBe(false);
  });

  it('should say a failure and load again on retry', async () => {
    const { store } = await setup([answer(500, { code: 'internal_error', message: 'x' }), { historyAppointments: [] }]);
    await store.start(BOOKING_KEY);
    expect(store.failed).toBe(true);
    expect(store.items).toBeNull();
    await store.retry();
    expect(store.failed).toBe(false);
    expect(store.items).toEqual([]);
  });
});

describe('HistoryStore: images of an earlier result', () => {
  it('should open the viewer with its label noted for the way back, and renew a stale link by loading the history again', async () => {
    const fresh = imsec(LOADED_AT + LINK_TTL_MS, LINK_TTL_MS, 'h2');
    const clock = { at: 0 };
    const { store, history, left, viewerInputs, remembered } = await setup(
      [{ historyAppointments: [releasedHistory()] }, { historyAppointments: [releasedHistory({ imageViewerLink: fresh })] }],
      clock,
    );
    await store.start(BOOKING_KEY);
    const [item] = store.items ?? [];
    if (!item) throw new Error('no item');
    await store.openImages(item, 'XR chest, 3 August 2026');
    expect(left).toEqual(['https://viewer.example/study?token=abc']);
    expect(remembered).toEqual([['XR chest, 3 August 2026', `/appointments/${BOOKING_KEY}/result/patient`]]);
    clock.at = LINK_TTL_MS;
    await store.openImages(item);
    expect(viewerInputs).toEqual([releasedHistory().imageViewerLink, fresh]);
    expect(history.calls.count).toBe(2);
    expect(item.images.problem).toBeNull();
  });
});
