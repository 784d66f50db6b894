import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError } from '../api/client';
import { Loader, type LoadState } from './load-state';

/**
 * What every page opened by a mail's signed link shares (unsubscribe, a reminder's answer, a waitlist offer):
 * the token from the address is the only credential; the page reads what the link names and
 * changes nothing until a button is pressed (mail scanners open every link).
 *
 * - loading: the link is being checked; ready: what it names is shown;
 * - invalid: no token, or the server refused it (400: altered, foreign or expired);
 * - failed: the check did not get through (network, server): Retry.
 *
 * A press answers an outcome the page shows, focused: `outcomeCount` moves focus even when the
 * same outcome comes twice. A 409 is the server saying why not in the patient's words: the page
 * shows its message and where things stand now.
 */
export type SignedLinkPageState = 'idle' | 'loading' | 'ready' | 'invalid' | 'failed';
/** A press: what it did, the server's refusal in its words, or not through. */
export type SignedLinkOutcome<Done extends string> = { kind: Done | 'failed' } | { kind: 'refused'; message: string };

const PAGE_STATE_OF: Record<LoadState, SignedLinkPageState> = { idle: 'idle', loading: 'loading', loaded: 'ready', error: 'failed' };

const isRefusedLink = (error: unknown): boolean => error instanceof ApiError && error.status === 400;

export class SignedLinkPage<View, Done extends string> {
  view: View | null = null;
  outcome: SignedLinkOutcome<Done> | null = null;
  outcomeCount = 0;
  saving = false;
  readonly loader = new Loader();
  private refused = false;
  private token: string | null = null;
  private readonly read: (token: string) => Promise<View>;

  constructor(read: (token: string) => Promise<View>) {
    this.read = read;
    makeAutoObservable<this, 'read' | 'token'>(this, { read: false, token: false, loader: false });
  }

  get state(): SignedLinkPageState {
    return this.refused ? 'invalid' : PAGE_STATE_OF[this.loader.state];
  }

  async open(token: string | null): Promise<void> {
    this.token = token;
    this.view = null;
    this.outcome = null;
    this.refused = false;
    if (token === null || token.trim() === '') {
      this.loader.dispose();
      this.refused = true;
      return;
    }
    await this.loader.run(() => this.read(token), {
      loaded: (view) => (this.view = view),
      failed: (error) => void (this.refused = isRefusedLink(error)),
    });
  }

  retry(): Promise<void> {
    return this.open(this.token);
  }

  /** Sends a press (`send` with the token); its answer is the new view and `done` the outcome. */
  async press(send: (token: string) => Promise<View>, done: Done): Promise<void> {
    const token = this.token;
    if (token === null || this.saving) return;
    this.saving = true;
    try {
      const view = await send(token);
      runInAction(() => {
        this.view = view;
        this.settle({ kind: done });
      });
    } catch (error) {
      const message = error instanceof ApiError && error.status === 409 ? error.message : null;
      const view = message === null ? null : await this.read(token).catch(() => null);
      runInAction(() => {
        if (view !== null) this.view = view;
        // A link refused now (it ran out while the page was open) reads like one refused at once.
        if (isRefusedLink(error)) this.refused = true;
        this.settle(message === null ? { kind: 'failed' } : { kind: 'refused', message });
      });
    } finally {
      runInAction(() => (this.saving = false));
    }
  }

  /** A new question on the page (the reply page's switch): the last outcome no longer applies. */
  clearOutcome(): void {
    this.outcome = null;
  }

  private settle(outcome: SignedLinkOutcome<Done>): void {
    this.outcome = outcome;
    this.outcomeCount += 1;
  }
}
