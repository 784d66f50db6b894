import { makeAutoObservable, runInAction } from 'mobx';
import type { FeedbackQuestionnaire } from '@contract/api/referrer-feedback';
import { ApiError } from '../../api/client';
import { createReferrerFeedbackApi, type FeedbackCredentials, type ReferrerFeedbackApi } from './referrer-feedback-api';
import type { FeatureStoreContext } from '../../stores/root-store';
import { LatestRun } from '../../platform/load-state';
import { refusalMessage } from '../../api/refusal';

/**
 * The feedback page's states (docs/rules/referrers.md#the-pages): loading; error (feedback switched
 * off, a refused or expired link, a failure); noCredentials (neither ?imsec nor ?accession:
 * 'No valid credentials available'); questionnaire (the survey is open); alreadyProvided;
 * provided (the thank-you, counting down to the redirect); redirect (leaving for the configured page).
 */
export type FeedbackPageState = 'loading' | 'error' | 'noCredentials' | 'questionnaire' | 'alreadyProvided' | 'provided' | 'redirect';

/** The feedback page moves on 4 s after a successful answer. */
export const FEEDBACK_REDIRECT_SECONDS = 4;

export interface FeedbackPageInput {
  imsec: string | null;
  accession: string | null;
  /** Application config referrerReportQualityFeedbackEnabled. */
  enabled: boolean;
  /** Application config referrerReportQualityFeedbackRedirectUrl: where the page goes after the thank-you. */
  redirectUrl: string | null;
}

/** What the page's timer and navigation need from the window (tests pass fakes). */
export interface FeedbackWindow {
  setTimeout(handler: () => void, ms: number): number;
  clearTimeout(id: number): void;
  location: { assign(url: string): void };
}

export class ReportFeedbackStore {
  state: FeedbackPageState = 'loading';
  questionnaire: FeedbackQuestionnaire | null = null;
  /** The survey modal is open (the referrer may close it and open it again). */
  surveyOpen = false;
  /** The failure line shown in the survey modal. */
  submitError: string | null = null;
  secondsLeft = FEEDBACK_REDIRECT_SECONDS;
  redirectUrl: string | null = null;

  private credentials: FeedbackCredentials | null = null;
  private timer: number | null = null;
  private readonly runs = new LatestRun();
  private readonly api: ReferrerFeedbackApi;
  private readonly win: FeedbackWindow;

  constructor(deps: { api: ReferrerFeedbackApi; win: FeedbackWindow }) {
    this.api = deps.api;
    this.win = deps.win;
    makeAutoObservable<this, 'api' | 'win' | 'credentials' | 'timer' | 'runs'>(this, {
      api: false,
      win: false,
      credentials: false,
      timer: false,
      runs: false,
    });
  }

  /** Opens the page for its query; a later open wins over an earlier one still loading. */
  async open(input: FeedbackPageInput): Promise<void> {
    const isCurrent = this.runs.start();
    this.stopTimer();
    this.questionnaire = null;
    this.surveyOpen = false;
    this.submitError = null;
    this.redirectUrl = input.redirectUrl;
    if (!input.enabled) {
      this.state = 'error';
      return;
    }
    const imsec = input.imsec?.trim() ?? '';
    const accession = input.accession?.trim() ?? '';
    if (imsec === '' && accession === '') {
      this.state = 'noCredentials';
      return;
    }
    this.credentials = imsec !== '' ? { imsec } : { pacsAppointmentId: accession };
    this.state = 'loading';
    try {
      const answer = await this.api.questionnaire(this.credentials);
      runInAction(() => {
        if (!isCurrent()) return;
        this.questionnaire = answer.questionnaire;
        this.state = answer.alreadyProvided || answer.questionnaire === null ? 'alreadyProvided' : 'questionnaire';
        this.surveyOpen = this.state === 'questionnaire';
      });
    } catch {
      runInAction(() => {
        if (isCurrent()) this.state = 'error';
      });
    }
  }

  openSurvey(): void {
    if (this.state === 'questionnaire') this.surveyOpen = true;
  }

  closeSurvey(): void {
    this.surveyOpen = false;
  }

  /**
   * Saves the answer: true closes the survey. A 409 means someone answered first (already
   * provided); another refusal keeps the survey open with the server's message, else `fallback`.
   */
  async submit(result: Record<string, unknown>, fallback: string): Promise<boolean> {
    const { credentials, questionnaire } = this;
    if (credentials === null || questionnaire === null) return false;
    this.submitError = null;
    try {
      await this.api.submit(credentials, { questionnaireId: questionnaire.questionnaireId, questionnaireResult: result });
      runInAction(() => {
        this.surveyOpen = false;
        this.state = 'provided';
        this.startCountdown();
      });
      return true;
    } catch (error) {
      runInAction(() => {
        if (error instanceof ApiError && error.code === 'feedback_already_provided') {
          this.surveyOpen = false;
          this.state = 'alreadyProvided';
          return;
        }
        this.submitError = refusalMessage(error) || fallback;
      });
      return false;
    }
  }

  /** Goes to the configured page now (the thank-you's link, or the end of the countdown). */
  redirectNow(): void {
    if (this.redirectUrl === null) return;
    this.stopTimer();
    this.state = 'redirect';
    this.win.location.assign(this.redirectUrl);
  }

  /** Leaving the page: answers on their way and the countdown change nothing. */
  dispose(): void {
    this.runs.cancel();
    this.stopTimer();
  }

  private startCountdown(): void {
    this.secondsLeft = FEEDBACK_REDIRECT_SECONDS;
    if (this.redirectUrl === null) return;
    const tick = () => {
      runInAction(() => {
        this.secondsLeft -= 1;
        if (this.secondsLeft <= 0) this.redirectNow();
        else this.timer = this.win.setTimeout(tick, 1000);
      });
    };
    this.timer = this.win.setTimeout(tick, 1000);
  }

  private stopTimer(): void {
    if (this.timer !== null) this.win.clearTimeout(this.timer);
    this.timer = null;
  }
}

export function reportFeedbackStoreOf({ client, window }: FeatureStoreContext): ReportFeedbackStore {
  return new ReportFeedbackStore({
    api: createReferrerFeedbackApi(client),
    win: {
      setTimeout: (handler, ms) => window.setTimeout(handler, ms),
      clearTimeout: (id) => window.clearTimeout(id),
      location: { assign: (url) => window.location.assign(url) },
    },
  });
}
