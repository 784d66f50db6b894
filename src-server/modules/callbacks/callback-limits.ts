import { createHmac } from 'node:crypto';
import { CALLBACK_MESSAGES } from '@contract/api/callbacks';
import type { Queryable } from '../../db/connection';
import { tooManyRequests } from '../../platform/errors';
import { addDays, localDate, zonedTimeToInstant } from '../../platform/time-zone';
import { createCallbackRepository, type LimitWindow } from './repository';

/**
 * Callback request limits (docs/rules/callbacks.md#limits), in the way of the booking limits
 * (booking-limits.ts): counters per client address and per phone number, keyed by an HMAC with
 * the server secret, counted in one statement so parallel requests cannot all slip under, and a
 * refused request taken off the counts again. Each request costs a person at the call centre
 * several minutes, so the numbers are far below booking's, and an hour window stops a burst long
 * before the day's count is spent.
 */

export interface CallbackLimits {
  perClient: { hour: number; day: number };
  perPhone: { hour: number; day: number };
  /** The day runs from midnight to midnight here (the provider's home zone, as booking's). */
  timeZone: string;
}

/**
 * A family asking for two or three relatives from one home connection, or a clinic's front desk
 * helping a few patients, stay well inside the client numbers; one patient needs at most a call
 * or two a day (a second request is usually "I missed your call").
 */
export const DEFAULT_CALLBACK_LIMITS: CallbackLimits = {
  perClient: { hour: 5, day: 20 },
  perPhone: { hour: 2, day: 4 },
  timeZone: 'Australia/Sydney',
};

type Kind = 'client_hour' | 'client_day' | 'phone_hour' | 'phone_day';

interface Counter extends LimitWindow {
  kind: Kind;
  limit: number;
}

const HOUR_MS = 60 * 60_000;

export function createCallbackLimiter(deps: { db: Queryable; secret: () => Promise<string>; limits: CallbackLimits }) {
  const { limits } = deps;
  const repository = createCallbackRepository(deps.db);

  async function countersFor(now: Date, ip: string, phone: string): Promise<Counter[]> {
    const key = await deps.secret();
    const hmac = (text: string): string => createHmac('sha256', key).update(`callback:${text}`).digest('hex');
    const hourStart = new Date(now.getTime() - (now.getTime() % HOUR_MS));
    const hourEnd = new Date(hourStart.getTime() + HOUR_MS);
    const day = localDate(now, limits.timeZone);
    const dayStart = zonedTimeToInstant(day, '00:00', limits.timeZone);
    const dayEnd = zonedTimeToInstant(addDays(day, 1), '00:00', limits.timeZone);
    const client = hmac(`ip:${ip}`);
    const number = hmac(`phone:${phone}`);
    return [
      { kind: 'client_hour', subject: client, start: hourStart, end: hourEnd, limit: limits.perClient.hour },
      { kind: 'client_day', subject: client, start: dayStart, end: dayEnd, limit: limits.perClient.day },
      { kind: 'phone_hour', subject: number, start: hourStart, end: hourEnd, limit: limits.perPhone.hour },
      { kind: 'phone_day', subject: number, start: dayStart, end: dayEnd, limit: limits.perPhone.day },
    ];
  }

  return {
    /**
     * Counts one request from this address for this number (already normalised); past any limit
     * the counts are taken back and a 429 says when the last refusing window ends (its
     * details name the refusing windows, for the audit).
     */
    async admit(now: Date, ip: string, phone: string): Promise<void> {
      const counters = await countersFor(now, ip, phone);
      const rows = await repository.countInWindows(counters, now);
      const over = counters.filter((counter) => Number(rows.find((row) => row.kind === counter.kind)?.count ?? 0) > counter.limit);
      if (over.length === 0) return;
      await repository.uncountInWindows(counters);
      const wait = Math.max(...over.map((counter) => counter.end.getTime() - now.getTime())) / 1000;
      throw tooManyRequests(CALLBACK_MESSAGES.tooMany, wait, { details: { windows: over.map((counter) => counter.kind) } });
    },
  };
}

export type CallbackLimiter = ReturnType<typeof createCallbackLimiter>;
