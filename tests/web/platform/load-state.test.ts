import { autorun } from 'mobx';
import { describe, expect, it } from 'vitest';
import { Loader, type LoadState } from '../../../src-web/platform/load-state';

/** A request the test answers by hand. */
function pending<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Loader', () => {
  it('is loading at once, then loaded with the answer taken in, and observable all along', async () => {
    const loader = new Loader();
    const seen: LoadState[] = [];
    const stop = autorun(() => seen.push(loader.state));
    const request = pending<string>();
    let taken: string | null = null;
    const run = loader.run(() => request.promise, { loaded: (value) => (taken = value) });
    expect(loader.state).toBe('loading');
    request.resolve('rows');
    expect(await run).toBe(true);
    expect(taken).toBe('rows');
    expect(seen).toEqual(['idle', 'loading', 'loaded']);
    stop();
  });

  it("shows the state the failure handler answers, 'error' when it answers none", async () => {
    const loader = new Loader();
    const failures: unknown[] = [];
    expect(
      await loader.run(() => Promise.reject(new Error('down')), { loaded: () => undefined, failed: (e) => void failures.push(e) }),
    ).toBe(false);
    expect(loader.state).toBe('error');
    expect(failures).toHaveLength(1);
    await loader.run(() => Promise.reject(new Error('bad filter')), { loaded: () => undefined, failed: () => 'loaded' });
    expect(loader.state).toBe('loaded');
  });

  it('drops an answer a newer load superseded, whichever comes back first', async () => {
    const loader = new Loader();
    const first = pending<string>();
    const second = pending<string>();
    const taken: string[] = [];
    const firstRun = loader.run(() => first.promise, { loaded: (value) => taken.push(value) });
    const secondRun = loader.run(() => second.promise, { loaded: (value) => taken.push(value) });
    second.resolve('new');
    first.resolve('old');
    expect(await Promise.all([firstRun, secondRun])).toEqual([false, true]);
    expect(taken).toEqual(['new']);
    expect(loader.state).toBe('loaded');
  });

  it('drops a failure a newer load superseded', async () => {
    const loader = new Loader();
    const first = pending<string>();
    const failed: unknown[] = [];
    const firstRun = loader.run(() => first.promise, { loaded: () => undefined, failed: (e) => void failed.push(e) });
    await loader.run(() => Promise.resolve('fine'), { loaded: () => undefined });
    first.reject(new Error('late'));
    expect(await firstRun).toBe(false);
    expect(failed).toEqual([]);
    expect(loader.state).toBe('loaded');
  });

  it('drops everything in flight once disposed, and current() turns false for follow-up requests', async () => {
    const loader = new Loader();
    const request = pending<string>();
    const taken: string[] = [];
    const run = loader.run(() => request.promise, { loaded: (value) => taken.push(value) });
    const isCurrent = loader.current();
    expect(isCurrent()).toBe(true);
    loader.dispose();
    expect(isCurrent()).toBe(false);
    request.resolve('too late');
    expect(await run).toBe(false);
    expect(taken).toEqual([]);
    expect(loader.state).toBe('loading');
  });
});
