import { describe, expect, it } from 'vitest';
import type { UnsubscribeStatus } from '@contract/api/unsubscribe';
import { ApiError } from '../../../../src-web/api/client';
import type { UnsubscribeApi } from '../../../../src-web/features/unsubscribe/unsubscribe-api';
import { UnsubscribeStore } from '../../../../src-web/features/unsubscribe/unsubscribe-store';

// The unsubscribe page's store: it reads the link on open and changes something only on the
// button; a refused link reads as invalid, a failed call offers a retry.

const refused = () => new ApiError('http', 400, 'unsubscribe_link_invalid', 'This unsubscribe link is not valid');
const offline = () => new ApiError('network', 0, 'service_unavailable', 'offline');

function fakeApi(options: { status?: () => UnsubscribeStatus; fail?: Partial<Record<keyof UnsubscribeApi, () => Error>> } = {}) {
  const calls: string[] = [];
  let unsubscribed = false;
  const answer = (): UnsubscribeStatus => options.status?.() ?? { address: 'l***@example.com', unsubscribed };
  const call = async (name: keyof UnsubscribeApi, token: string, change?: boolean): Promise<UnsubscribeStatus> => {
    calls.push(`${name}:${token}`);
    const failure = options.fail?.[name];
    if (failure) throw failure();
    if (change !== undefined) unsubscribed = change;
    return answer();
  };
  const api: UnsubscribeApi = {
    status: (token) => call('status', token),
    unsubscribe: (token) => call('unsubscribe', token, true),
    resubscribe: (token) => call('resubscribe', token, false),
  };
  return { api, calls };
}

describe('UnsubscribeStore', () => {
  it('should only read the link on open: nothing is unsubscribed until the button', async () => {
    const { api, calls } = fakeApi();
    const store = new UnsubscribeStore({ api });
    await store.open('tok');
    expect(store.state).toBe('ready');
    expect(store.status).toEqual({ address: 'l***@example.com', unsubscribed: false });
    expect(calls).toEqual(['status:tok']);
    expect(store.outcome).toBeNull();
  });

  it('should unsubscribe on the button, then subscribe again, each with an outcome to focus', async () => {
    const { api, calls } = fakeApi();
    const store = new UnsubscribeStore({ api });
    await store.open('tok');
    await store.unsubscribe();
    expect(store.status?.unsubscribed).toBe(true);
    expect(store.outcome).toBe('unsubscribed');
    expect(store.outcomeCount).toBe(1);
    await store.resubscribe();
    expect(store.status?.unsubscribed).toBe(false);
    expect(store.outcome).toBe('resubscribed');
    expect(store.outcomeCount).toBe(2);
    expect(calls).toEqual(['status:tok', 'unsubscribe:tok', 'resubscribe:tok']);
    expect(store.saving).toBe(false);
  });

  it('should call a link without a token invalid without asking the server', async () => {
    const { api, calls } = fakeApi();
    const store = new UnsubscribeStore({ api });
    await store.open(null);
    expect(store.state).toBe('invalid');
    await store.open('   ');
    expect(store.state).toBe('invalid');
    expect(calls).toEqual([]);
  });

  it('should call a link the server refuses (altered, foreign, expired) invalid, and a failed check retryable', async () => {
    const invalid = new UnsubscribeStore({ api: fakeApi({ fail: { status: refused } }).api });
    await invalid.open('altered');
    expect(invalid.state).toBe('invalid');

    let down = true;
    const flaky = fakeApi({ fail: { status: () => (down ? offline() : refused()) } });
    const store = new UnsubscribeStore({ api: flaky.api });
    await store.open('tok');
    expect(store.state).toBe('failed');
    down = false;
    await store.retry();
    expect(store.state).toBe('invalid');
    expect(flaky.calls).toEqual(['status:tok', 'status:tok']);
  });

  it('should keep the page and say the press failed when the unsubscribe does not get through', async () => {
    const { api } = fakeApi({ fail: { unsubscribe: offline } });
    const store = new UnsubscribeStore({ api });
    await store.open('tok');
    await store.unsubscribe();
    expect(store.state).toBe('ready');
    expect(store.outcome).toBe('actionFailed');
    expect(store.status?.unsubscribed).toBe(false);
    expect(store.saving).toBe(false);
  });
});
