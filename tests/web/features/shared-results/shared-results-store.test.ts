import { describe, expect, it } from 'vitest';
import { SHARED_RESULTS_PATH } from '@contract/api/result-shares';
import { createApiClient } from '../../../../src-web/api/client';
import { createResultsApi } from '../../../../src-web/api/results-api';
import { createSharedResultsApi } from '../../../../src-web/features/shared-results/shared-results-api';
import { SharedResultsStore } from '../../../../src-web/features/shared-results/shared-results-store';
import { paths } from '../../../../src-web/paths';
import { readShareToken } from '../../../../src-web/platform/share-token';
import { SessionStore } from '../../../../src-web/stores/session-store';
import { startApiServer } from '../../helpers/api-server';
import { answer } from '../patient-access/patient-access-fixtures';
import { recordingNavigator } from '../patient-access/patient-access-setup';
import { imsec, LINK_TTL_MS } from '../results/results-fixtures';
import { RESULT_ID, SHARE_TOKEN, sharedResults, sharedServer, type SharedServerOptions } from './shared-results-fixtures';

/** A Storage in memory (sessionStorage of one tab). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

const LOADED_AT = Date.parse('2026-12-10T00:00:00.000Z');

/** The store wired as its factory wires it, with the real client (and its 401 rule) over a fake HTTP server. */
async function setup(options: SharedServerOptions & { url?: string; storage?: Storage; clock?: { at: number } } = {}) {
  const fake = sharedServer(options);
  const server = await startApiServer(fake.routes);
  const client = createApiClient(server.url);
  const navigator = recordingNavigator(options.url ?? '/results/shared');
  const session = new SessionStore(() => navigator);
  client.setSessionHandlers({ logout: () => session.logout(), reauthenticate: () => session.reauthenticate() });
  const storage = options.storage ?? memoryStorage();
  const left: string[] = [];
  const clock = options.clock ?? { at: 0 };
  const results = createResultsApi(client);
  const store = new SharedResultsStore({
    api: createSharedResultsApi(client),
    imageViewer: (link) => results.imageViewer(link),
    storage,
    navigator: () => navigator,
    browser: { assign: (url) => left.push(url), openInNewTab: (url) => left.push(`new tab: ${url}`) },
    now: () => LOADED_AT + clock.at,
  });
  return { store, fake, server, navigator, storage, left, clock };
}

describe('SharedResultsStore: the link', () => {
  it('should keep the token for the tab and take the fragment out of the address bar, replacing the entry', async () => {
    const { store, navigator, storage } = await setup({ shared: [sharedResults()] });
    await store.open(`#${SHARE_TOKEN}`);
    expect(readShareToken(storage)).toBe(SHARE_TOKEN);
    expect(navigator.visited[0]).toEqual({ to: '/results/shared', replace: true });
    expect(store.state).toBe('loaded');
    expect(store.shared?.sharedBy).toBe('Liam E.');
  });

  it('should send a contact without a session to sign in with the share link, and back here', async () => {
    const { store, navigator, fake } = await setup();
    await store.open(`#${SHARE_TOKEN}`);
    expect(navigator.visited.at(-1)).toEqual({ to: '/authentication?returnUrl=%2Fresults%2Fshared&shared=true', replace: true });
    expect(store.state).toBe('leaving');
    // The token never travels in a URL, and the 401 did not start the patient's booking sign-in.
    expect(fake.signIn.bodies).toEqual([]);
    expect(navigator.visited.some((visit) => visit.to.includes(SHARE_TOKEN))).toBe(false);
  });

  it('should sign in under /iframe when embedded', async () => {
    const { store, navigator } = await setup({ url: '/iframe/results/shared' });
    await store.open(`#${SHARE_TOKEN}`);
    expect(navigator.visited.at(-1)?.to).toBe('/iframe/authentication?returnUrl=%2Fiframe%2Fresults%2Fshared&shared=true');
  });

  it('should use the kept token after a reload (no fragment any more)', async () => {
    const storage = memoryStorage();
    storage.setItem('pp_share_token', SHARE_TOKEN);
    const { store, navigator } = await setup({ storage });
    await store.open('');
    // Nothing to take out of the address bar; straight to sign-in with the kept token.
    expect(navigator.visited).toEqual([{ to: '/authentication?returnUrl=%2Fresults%2Fshared&shared=true', replace: true }]);
  });

  it.each([['#abc'], [`#${SHARE_TOKEN.slice(0, 42)}`], [`#${SHARE_TOKEN}x`], [`#${SHARE_TOKEN.slice(0, 42)}*`]])(
    'should say the link is not complete for a garbled fragment (%s), forgetting an older token, asking nothing',
    async (hash) => {
      const storage = memoryStorage();
      storage.setItem('pp_share_token', SHARE_TOKEN);
      const { store, server, navigator } = await setup({ storage });
      await store.open(hash);
      expect(store.state).toBe('badLink');
      expect(readShareToken(storage)).toBeNull();
      expect(server.requests).toEqual([]);
      expect(navigator.visited).toEqual([{ to: '/results/shared', replace: true }]);
    },
  );

  it('should say the link is not complete when there is no token and no session', async () => {
    const { store, navigator } = await setup();
    await store.open('');
    expect(store.state).toBe('badLink');
    expect(navigator.visited).toEqual([]);
  });

  it('should show the results of a contact already signed in even without a token (another tab)', async () => {
    const { store } = await setup({ shared: [sharedResults()] });
    await store.open('');
    expect(store.state).toBe('loaded');
  });

  it('should name the same path as the server puts in the share link', () => {
    expect(paths.sharedResults()).toBe(SHARED_RESULTS_PATH);
  });
});

describe('SharedResultsStore: a share that no longer stands', () => {
  it.each([
    ['share_revoked', '/deny?revoked=true'],
    ['share_expired', '/deny?resultsExpired=true'],
  ])('should go to /deny on 410 %s when loading', async (code, target) => {
    const { store, navigator } = await setup({ shared: [answer(410, { code, message: 'gone' })] });
    await store.open(`#${SHARE_TOKEN}`);
    expect(navigator.visited.at(-1)).toEqual({ to: target, replace: true });
  });

  it('should go to /deny (inside /iframe) when the share is revoked before a PDF is opened', async () => {
    const { store, navigator } = await setup({
      url: '/iframe/results/shared',
      shared: [sharedResults(), answer(410, { code: 'share_revoked', message: 'gone' })],
    });
    await store.open('');
    expect(store.state).toBe('loaded');
    await store.recheck();
    expect(navigator.visited.at(-1)).toEqual({ to: '/iframe/deny?revoked=true', replace: true });
  });

  it('should go to /deny rather than show an images problem when the share was revoked before the link was renewed', async () => {
    const clock = { at: 0 };
    const { store, navigator, left } = await setup({
      clock,
      shared: [sharedResults(), answer(410, { code: 'share_revoked', message: 'gone' })],
    });
    await store.open('');
    const [item] = store.items;
    if (!item) throw new Error('no item');
    clock.at = LINK_TTL_MS;
    await store.openImages(item);
    expect(navigator.visited.at(-1)?.to).toBe('/deny?revoked=true');
    expect(item.images.problem).toBeNull();
    expect(left).toEqual([]);
  });

  it('should show the load error with a retry for other failures', async () => {
    const { store } = await setup({ shared: [answer(500, { code: 'internal_error', message: 'x' }), sharedResults()] });
    await store.open('');
    expect(store.state).toBe('error');
    await store.retry();
    expect(store.state).toBe('loaded');
  });
});

describe('SharedResultsStore: reports', () => {
  it('should link each report PDF by its result id, inline and as a download', async () => {
    const { store, server } = await setup({ shared: [sharedResults()] });
    await store.open('');
    const [item] = store.items;
    if (!item) throw new Error('no item');
    expect(store.pdfUrl(item, false)).toBe(`${server.url}/api/shared-results/${RESULT_ID}/report.pdf`);
    expect(store.pdfUrl(item, true)).toBe(`${server.url}/api/shared-results/${RESULT_ID}/report.pdf?download=true`);
  });

  it('should open the images through the image viewer link, renewing a stale link from the shared results first', async () => {
    const fresh = imsec(LOADED_AT + LINK_TTL_MS, LINK_TTL_MS, 'n2');
    const renewed = sharedResults();
    const first = renewed.results[0];
    if (!first) throw new Error('no result');
    const clock = { at: 0 };
    const { store, fake, left } = await setup({
      clock,
      shared: [sharedResults(), { ...renewed, results: [{ ...first, imageViewerLink: fresh }] }],
    });
    await store.open('');
    const [item] = store.items;
    if (!item) throw new Error('no item');
    await store.openImages(item);
    expect(left).toEqual(['https://viewer.example/study?token=abc']);
    clock.at = LINK_TTL_MS;
    await store.openImages(item);
    expect(fake.viewerInputs).toEqual([first.imageViewerLink, fresh]);
  });
});
