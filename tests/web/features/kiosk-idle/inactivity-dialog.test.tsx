import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18nInstance } from 'i18next';
import { observer } from 'mobx-react-lite';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchActivity } from '../../../../src-web/features/kiosk-idle/activity-watch';
import { InactivityDialog } from '../../../../src-web/features/kiosk-idle/inactivity-dialog';
import { KioskIdleStore, type KioskIdleDeps } from '../../../../src-web/features/kiosk-idle/kiosk-idle-store';
import { createI18n } from '../../../../src-web/i18n/create-i18n';

const IDLE_SECONDS = 90;
let i18n: I18nInstance;

beforeAll(async () => {
  i18n = await createI18n('en', {});
});

/** The store on this jsdom window's events, with fake timers and a recorded end of the session. */
function storeWith(overrides: Partial<KioskIdleDeps> = {}) {
  const endSession = vi.fn(async () => undefined);
  const store = new KioskIdleStore({
    clock: {
      now: () => Date.now(),
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    idleSeconds: () => IDLE_SECONDS,
    watchActivity: (onActivity) => watchActivity(window, onActivity),
    endSession,
    ...overrides,
  });
  return { store, endSession };
}

/** What the app's watch does: the page, and the dialog while counting down. */
const Watched = observer(function Watched({ store }: { store: KioskIdleStore }) {
  return (
    <>
      <main>
        <h1>Your appointment</h1>
        <button type="button">Page button</button>
      </main>
      {store.countingDown && <InactivityDialog store={store} />}
    </>
  );
});

function renderWatched(store: KioskIdleStore) {
  render(
    <I18nextProvider i18n={i18n}>
      <Watched store={store} />
    </I18nextProvider>,
  );
  store.start();
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const dialog = () => screen.queryByRole('alertdialog', { name: 'Are you still there?' });
const message = (seconds: number) =>
  `You have been inactive for a while. For your privacy, this screen returns to the start in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;

describe('the inactivity dialog', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("should open after kioskNoActivitySeconds as an alertdialog with the live count, Start again and I'm still here (I'm still here focused)", () => {
    const { store } = storeWith();
    renderWatched(store);
    advance(IDLE_SECONDS * 1000 - 1);
    expect(dialog()).toBeNull();
    advance(1);
    const open = dialog();
    expect(open).not.toBeNull();
    const described = document.getElementById(open?.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe(message(10));
    expect(within(open as HTMLElement).getByRole('button', { name: 'Start again' })).toBeTruthy();
    expect(document.activeElement).toBe(within(open as HTMLElement).getByRole('button', { name: "I'm still here" }));
    advance(9_000);
    expect(described?.textContent).toBe(message(1));
  });

  it('should tell a screen reader the count when it opens and once more at 5 seconds, not every second', () => {
    const { store } = storeWith();
    renderWatched(store);
    advance(IDLE_SECONDS * 1000);
    const status = screen.getByRole('status');
    const heard: string[] = [];
    for (let second = 0; second < 9; second++) {
      heard.push(status.textContent ?? '');
      advance(1_000);
    }
    expect(new Set(heard)).toEqual(new Set(['', message(5)]));
    expect(heard.indexOf(message(5))).toBe(5);
  });

  it("should close on I'm still here and open again after another idle time", () => {
    const { store, endSession } = storeWith();
    renderWatched(store);
    advance(IDLE_SECONDS * 1000 + 4_000);
    fireEvent.click(screen.getByRole('button', { name: "I'm still here" }));
    expect(dialog()).toBeNull();
    advance(IDLE_SECONDS * 1000 - 1);
    expect(dialog()).toBeNull();
    advance(1);
    expect(dialog()).not.toBeNull();
    expect(endSession).not.toHaveBeenCalled();
  });

  it('should close on activity on the page (outside the dialog)', () => {
    const { store } = storeWith();
    renderWatched(store);
    advance(IDLE_SECONDS * 1000);
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(dialog()).toBeNull();
    advance(IDLE_SECONDS * 1000);
    // Scrolling the page fires at the document; a scrolling element's own event does not bubble.
    fireEvent.scroll(document);
    expect(dialog()).toBeNull();
    advance(IDLE_SECONDS * 1000);
    fireEvent.scroll(screen.getByRole('main'));
    expect(dialog()).toBeNull();
    advance(IDLE_SECONDS * 1000);
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: 'x' })));
    expect(dialog()).toBeNull();
  });

  it('should leave a tap on its own buttons to the buttons: Start again ends the session at once', () => {
    const { store, endSession } = storeWith();
    renderWatched(store);
    advance(IDLE_SECONDS * 1000 + 1_000);
    const home = screen.getByRole('button', { name: 'Start again' });
    fireEvent.pointerDown(home);
    fireEvent.touchStart(home);
    expect(dialog()).not.toBeNull();
    fireEvent.click(home);
    expect(endSession).toHaveBeenCalledOnce();
    expect(store.ending).toBe(true);
    // The dialog stays, its buttons disabled, until the page is left; activity no longer matters.
    expect((screen.getByRole('button', { name: 'Start again' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(document.body, { key: 'a' });
    advance(IDLE_SECONDS * 1000);
    expect(endSession).toHaveBeenCalledOnce();
  });

  it('should end the session when the countdown runs out, once', () => {
    const { store, endSession } = storeWith();
    renderWatched(store);
    advance(IDLE_SECONDS * 1000 + 9_999);
    expect(endSession).not.toHaveBeenCalled();
    advance(1);
    expect(endSession).toHaveBeenCalledOnce();
    advance(IDLE_SECONDS * 3000);
    expect(endSession).toHaveBeenCalledOnce();
  });

  it('should treat Escape as Cancel', () => {
    const { store } = storeWith();
    renderWatched(store);
    advance(IDLE_SECONDS * 1000);
    fireEvent(dialog() as HTMLElement, new Event('cancel', { cancelable: true }));
    expect(dialog()).toBeNull();
  });

  it('should stop watching on stop (kiosk mode off, unmount)', () => {
    const { store, endSession } = storeWith();
    renderWatched(store);
    advance(IDLE_SECONDS * 1000);
    act(() => store.stop());
    expect(dialog()).toBeNull();
    advance(IDLE_SECONDS * 5000);
    expect(dialog()).toBeNull();
    expect(endSession).not.toHaveBeenCalled();
  });
});

describe('failing closed', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('should end the session at once when idle watching cannot start', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { store, endSession } = storeWith({
      watchActivity: () => {
        throw new Error('no events here');
      },
    });
    store.start();
    expect(endSession).toHaveBeenCalledOnce();
    expect(store.watching).toBe(false);
  });

  it('should end the session at once when the timers cannot be set', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { store, endSession } = storeWith({
      clock: {
        now: () => Date.now(),
        setTimeout: () => {
          throw new Error('timers blocked');
        },
        clearTimeout: () => undefined,
      },
    });
    store.start();
    expect(endSession).toHaveBeenCalledOnce();
  });

  it('should end the session when the idle time from the config is not usable', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { store, endSession } = storeWith({ idleSeconds: () => Number.NaN });
    store.start();
    expect(endSession).toHaveBeenCalledOnce();
  });
});
