import { makeAutoObservable, runInAction } from 'mobx';
import {
  CALLBACK_REASON_MAX,
  CALLBACK_WINDOWS,
  CallbackRequestSchema,
  isCallbackPhone,
  type CallbackRequestReceived,
  type CallbackWindow,
} from '@contract/api/callbacks';
import { NAME_PATTERN } from '@contract/api/booking';
import { ApiError } from '../../api/client';
import type { FeatureStoreContext } from '../../stores/root-store';
import { createCallbackApi, type CallbackApi } from './callback-api';

export type CallbackField = 'firstName' | 'lastName' | 'phone' | 'windows' | 'reason';
const FIELDS: readonly CallbackField[] = ['firstName', 'lastName', 'phone', 'windows', 'reason'];

/** Why the request was not taken: the server's words for a refused field, the limits, or anything else. */
export type CallbackFailure = { kind: 'invalid'; message: string } | { kind: 'too_many'; retryAt: string | null } | { kind: 'general' };

const validName = (value: string): boolean => {
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= 100 && NAME_PATTERN.test(trimmed);
};

function retryAfterSeconds(details: unknown): number | null {
  if (typeof details !== 'object' || details === null || !('retryAfterSeconds' in details)) return null;
  const seconds = details.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/**
 * The "Ask us to call you" form (docs/rules/callbacks.md#the-patients-page): the contract's rules
 * checked as the patient goes (each field's problem from when they leave it, all on submit), then
 * the request; after it the page says when and on which number the call centre will call.
 */
export class CallbackStore {
  firstName = '';
  lastName = '';
  phone = '';
  windows: CallbackWindow[] = [];
  reason = '';
  /** The exam the booking flow's link named (?exam=), sent along for the call centre. */
  examSlug: string | null = null;
  touched = new Set<CallbackField>();
  sending = false;
  received: CallbackRequestReceived | null = null;
  failure: CallbackFailure | null = null;

  private readonly api: CallbackApi;
  private readonly now: () => Date;

  constructor(deps: { api: CallbackApi; now?: () => Date }) {
    this.api = deps.api;
    this.now = deps.now ?? (() => new Date());
    makeAutoObservable<this, 'api' | 'now'>(this, { api: false, now: false });
  }

  /** A new visit to the page starts a new form (kept only while the page is open). */
  start(examSlug: string | null): void {
    this.firstName = '';
    this.lastName = '';
    this.phone = '';
    this.windows = [];
    this.reason = '';
    this.touched = new Set();
    this.received = null;
    this.failure = null;
    this.examSlug = examSlug !== null && /^[a-z0-9][a-z0-9-]{0,79}$/.test(examSlug) ? examSlug : null;
  }

  set(field: Exclude<CallbackField, 'windows'>, value: string): void {
    this[field] = field === 'reason' ? value.slice(0, CALLBACK_REASON_MAX) : value;
    this.failure = null;
  }

  toggleWindow(window: CallbackWindow, on: boolean): void {
    const chosen = new Set(this.windows);
    if (on) chosen.add(window);
    else chosen.delete(window);
    // Kept in the order the form lists them, so the success text reads in that order too.
    this.windows = CALLBACK_WINDOWS.filter((each) => chosen.has(each));
    this.touched.add('windows');
    this.failure = null;
  }

  leave(field: CallbackField): void {
    this.touched.add(field);
  }

  /** Which fields break the contract's rules (whether or not shown yet). */
  get problems(): ReadonlySet<CallbackField> {
    const problems = new Set<CallbackField>();
    if (!validName(this.firstName)) problems.add('firstName');
    if (!validName(this.lastName)) problems.add('lastName');
    if (!isCallbackPhone(this.phone)) problems.add('phone');
    if (this.windows.length === 0) problems.add('windows');
    if (this.reason.trim().length === 0 || this.reason.length > CALLBACK_REASON_MAX) problems.add('reason');
    return problems;
  }

  /** A field's problem once the patient has left it (or tried to send). */
  shows(field: CallbackField): boolean {
    return this.touched.has(field) && this.problems.has(field);
  }

  /** Sends the request when every field is right; answers the first field with a problem otherwise (for the focus). */
  async submit(): Promise<CallbackField | null> {
    if (this.sending) return null;
    for (const field of FIELDS) this.touched.add(field);
    const first = FIELDS.find((field) => this.problems.has(field));
    if (first !== undefined) return first;
    const body = CallbackRequestSchema.parse({
      firstName: this.firstName,
      lastName: this.lastName,
      phone: this.phone,
      windows: this.windows,
      reason: this.reason,
      ...(this.examSlug === null ? {} : { examSlug: this.examSlug }),
    });
    this.sending = true;
    this.failure = null;
    try {
      const received = await this.api.request(body);
      runInAction(() => (this.received = received));
    } catch (error) {
      runInAction(() => (this.failure = this.failureOf(error)));
    } finally {
      runInAction(() => (this.sending = false));
    }
    return null;
  }

  private failureOf(error: unknown): CallbackFailure {
    if (!(error instanceof ApiError) || error.kind !== 'http') return { kind: 'general' };
    if (error.status === 429) {
      const seconds = retryAfterSeconds(error.details);
      return { kind: 'too_many', retryAt: seconds === null ? null : new Date(this.now().getTime() + seconds * 1000).toISOString() };
    }
    if (error.status === 400) return { kind: 'invalid', message: error.message };
    return { kind: 'general' };
  }
}

export function callbackStoreOf({ client }: FeatureStoreContext): CallbackStore {
  return new CallbackStore({ api: createCallbackApi(client) });
}
