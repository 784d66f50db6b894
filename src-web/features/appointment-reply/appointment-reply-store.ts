import { makeAutoObservable, runInAction } from 'mobx';
import type { AppointmentReplyView } from '@contract/api/appointment-reply';
import { ApiError } from '../../api/client';
import type { FeatureStoreContext } from '../../stores/root-store';
import { Loader, type LoadState } from '../../platform/load-state';
import { createAppointmentReplyApi, type AppointmentReplyApi } from './appointment-reply-api';

/**
 * The reminder's answer page, /appointment-reply?token=…&answer=confirm|cancel
 * (docs/rules/reminders.md#replies): it reads the appointment the link names and changes nothing
 * until a button is pressed (mail scanners open every link).
 *
 * - loading: the link is being checked; ready: the appointment and its answers are shown;
 * - invalid: no token, or the server refused it (altered, foreign or expired);
 * - failed: the check did not get through (network, server): Retry.
 */
export type ReplyPageState = 'idle' | 'loading' | 'ready' | 'invalid' | 'failed';
export type ReplyAnswer = 'confirm' | 'cancel';
/** What the last button press did (null before any): taken, refused by the booking's state (the server's words), or not through. */
export type ReplyOutcome = { kind: 'confirmed' | 'cancelled' | 'failed' } | { kind: 'refused'; message: string } | null;

const PAGE_STATE_OF: Record<LoadState, ReplyPageState> = { idle: 'idle', loading: 'loading', loaded: 'ready', error: 'failed' };

export class AppointmentReplyStore {
  view: AppointmentReplyView | null = null;
  /** The answer the page asks about first: the mail's button chose it; the patient may switch. */
  answer: ReplyAnswer = 'confirm';
  outcome: ReplyOutcome = null;
  /** Bumped with every outcome, so the page moves focus to it even when the same outcome comes twice. */
  outcomeCount = 0;
  saving = false;

  readonly loader = new Loader();
  private refused = false;
  private token: string | null = null;
  private readonly api: AppointmentReplyApi;

  constructor(deps: { api: AppointmentReplyApi }) {
    this.api = deps.api;
    makeAutoObservable<this, 'api' | 'token'>(this, { api: false, token: false, loader: false });
  }

  get state(): ReplyPageState {
    return this.refused ? 'invalid' : PAGE_STATE_OF[this.loader.state];
  }

  async open(token: string | null, answer: string | null): Promise<void> {
    this.token = token;
    this.view = null;
    this.outcome = null;
    this.refused = false;
    this.answer = answer === 'cancel' ? 'cancel' : 'confirm';
    if (token === null || token.trim() === '') {
      this.loader.dispose();
      this.refused = true;
      return;
    }
    await this.loader.run(() => this.api.view(token), {
      loaded: (view) => (this.view = view),
      failed: (error) => void (this.refused = isRefusedLink(error)),
    });
  }

  retry(): Promise<void> {
    return this.open(this.token, this.answer);
  }

  /** Switches the question without asking the server ("I cannot come" from the confirm page, and back). */
  choose(answer: ReplyAnswer): void {
    this.answer = answer;
    this.outcome = null;
  }

  async send(answer: ReplyAnswer): Promise<void> {
    const token = this.token;
    if (token === null || this.saving) return;
    this.saving = true;
    try {
      const view = answer === 'confirm' ? await this.api.confirm(token) : await this.api.cancel(token);
      runInAction(() => {
        this.view = view;
        this.settle({ kind: answer === 'confirm' ? 'confirmed' : 'cancelled' });
      });
    } catch (error) {
      await this.afterFailure(error);
    } finally {
      runInAction(() => {
        this.saving = false;
      });
    }
  }

  /** A refusal by the booking's state says why and shows where it stands now; a refused link reads as one refused at once. */
  private async afterFailure(error: unknown): Promise<void> {
    if (error instanceof ApiError && error.status === 409 && this.token !== null) {
      const message = error.message;
      const view = await this.api.view(this.token).catch(() => null);
      runInAction(() => {
        if (view !== null) this.view = view;
        this.settle({ kind: 'refused', message });
      });
      return;
    }
    runInAction(() => {
      if (isRefusedLink(error)) this.refused = true;
      this.settle({ kind: 'failed' });
    });
  }

  private settle(outcome: Exclude<ReplyOutcome, null>): void {
    this.outcome = outcome;
    this.outcomeCount += 1;
  }
}

function isRefusedLink(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400;
}

export function appointmentReplyStoreOf({ client }: FeatureStoreContext): AppointmentReplyStore {
  return new AppointmentReplyStore({ api: createAppointmentReplyApi(client) });
}
