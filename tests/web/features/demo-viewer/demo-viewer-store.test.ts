import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-web/api/client';
import { createDemoViewerApi } from '../../../../src-web/features/demo-viewer/demo-viewer-api';
import { DemoViewerStore } from '../../../../src-web/features/demo-viewer/demo-viewer-store';
import { startApiServer } from '../../helpers/api-server';
import { demoViewerServer, EXPIRED_TOKEN, STUDY, TOKEN } from './demo-viewer-fixtures';

async function setup() {
  const fake = demoViewerServer();
  const server = await startApiServer(fake.routes);
  const store = new DemoViewerStore({ api: createDemoViewerApi(createApiClient(server.url)) });
  return { store, fake, server };
}

describe('DemoViewerStore', () => {
  it('should load the study the link opens and show its first image', async () => {
    const { store, server } = await setup();
    const opening = store.open(TOKEN);
    expect(store.loadState).toBe('loading');
    await opening;
    expect(store.loadState).toBe('loaded');
    expect(store.problem).toBeNull();
    expect(store.study).toEqual(STUDY);
    expect(store.current).toEqual(STUDY.images[0]);
    expect(server.requests.map((request) => request.url)).toEqual([`/api/demo-viewer/study?token=${encodeURIComponent(TOKEN)}`]);
  });

  it('should give each image the address of its PNG with the link', async () => {
    const { store, server } = await setup();
    await store.open(TOKEN);
    expect(store.imageUrl(2)).toBe(`${server.url}/api/demo-viewer/images/2?token=${encodeURIComponent(TOKEN)}`);
  });

  it('should select images by number, step round the ends, and ignore numbers outside the study', async () => {
    const { store } = await setup();
    await store.open(TOKEN);
    store.select(3);
    expect(store.current?.title).toBe('Axial T2 — slice 21');
    store.step(1);
    expect(store.selected).toBe(0);
    store.step(-1);
    expect(store.selected).toBe(3);
    for (const index of [-1, 4, 1.5, Number.NaN]) {
      store.select(index);
      expect(store.selected).toBe(3);
    }
  });

  it('should call an expired or changed link a link problem (no retry), after asking the server', async () => {
    const { store, fake } = await setup();
    await store.open(EXPIRED_TOKEN);
    expect(store.loadState).toBe('error');
    expect(store.problem).toBe('link');
    expect(store.study).toBeNull();
    expect(store.current).toBeNull();
    expect(fake.studyCalls).toBe(1);
  });

  it.each([
    ['no token', null],
    ['an empty token', ''],
    ['a token with spaces', 'v1.a b.c'],
    ['a token too long', 'x'.repeat(1025)],
  ])('should call %s a link problem without asking the server', async (_case, token) => {
    const { store, fake } = await setup();
    await store.open(token);
    expect(store.problem).toBe('link');
    expect(store.loadState).toBe('error');
    expect(fake.studyCalls).toBe(0);
  });

  it('should offer a retry when the server is unavailable, and load the study on it', async () => {
    const { store, fake } = await setup();
    fake.answer = 'unavailable';
    await store.open(TOKEN);
    expect(store.problem).toBe('unavailable');
    fake.answer = 'study';
    await store.retry();
    expect(store.problem).toBeNull();
    expect(store.study?.studyInstanceUid).toBe(STUDY.studyInstanceUid);
  });

  it('should keep the later link when an earlier answer arrives after it', async () => {
    const { store, fake } = await setup();
    let release: () => void = () => undefined;
    fake.hold = (proceed) => {
      release = proceed;
    };
    fake.answer = 'study';
    const first = store.open(TOKEN);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = store.open('not a link');
    await second;
    release();
    await first;
    expect(store.problem).toBe('link');
    expect(store.study).toBeNull();
  });

  it('should ignore an answer that arrives after the page was left', async () => {
    const { store, fake } = await setup();
    let release: () => void = () => undefined;
    fake.hold = (proceed) => {
      release = proceed;
    };
    const opening = store.open(TOKEN);
    await new Promise((resolve) => setTimeout(resolve, 50));
    store.dispose();
    release();
    await opening;
    expect(store.study).toBeNull();
    expect(store.loadState).toBe('loading');
  });
});
