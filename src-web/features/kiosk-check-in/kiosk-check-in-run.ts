import type { CheckInStatus } from '@contract/api/check-in';
import type { CheckInApi } from '../../api/check-in-api';
import type { KioskApi } from './kiosk-api';

/**
 * Checking a booking's appointments in at the kiosk and following the hand-off
 * (docs/rules/kiosk.md#kiosk-check-in-in-the-web-app): success at once goes to success; sent (on its way to the clinic) is polled as
 * digital check-in does until checked in (complete); anything else is the error step.
 */

export const KIOSK_POLL_MS = 1_000;
/** The hand-off gives up after about four minutes; the kiosk stops waiting a little later. */
export const KIOSK_POLL_GIVE_UP_MS = 5 * 60_000;

/** Where the check-in of every appointment stands. */
export type RunOutcome = 'success' | 'sent' | 'failed';

const IN_PROGRESS: readonly CheckInStatus['state'][] = ['PREPARING', 'PREPARED', 'CHECKING_IN'];

/** One outcome for a booking's statuses: all checked in, some still on their way, or one failed or never started. */
export function outcomeOf(statuses: readonly CheckInStatus[]): RunOutcome {
  if (statuses.length === 0) return 'failed';
  if (statuses.every((status) => status.checkInSuccess)) return 'success';
  return statuses.every((status) => status.checkInSuccess || IN_PROGRESS.includes(status.state)) ? 'sent' : 'failed';
}

/** Checks each appointment in, one after another (a failure stops the rest: the desk takes over). */
export async function checkInEach(api: KioskApi, bookingKey: string, slugs: readonly string[]): Promise<CheckInStatus[]> {
  const statuses: CheckInStatus[] = [];
  for (const slug of slugs) statuses.push(await api.checkIn(bookingKey, slug));
  return statuses;
}

export interface PollOptions {
  api: Pick<CheckInApi, 'status'>;
  bookingKey: string;
  statuses: CheckInStatus[];
  pollMs?: number;
  giveUpMs?: number;
  /** Called once with the end: every appointment checked in (true) or not (false). */
  done(checkedIn: boolean): void;
}

/** Polls the statuses not yet checked in until all are, one fails, a poll fails, or time runs out. Returns a stop function. */
export function pollUntilCheckedIn({
  api,
  bookingKey,
  statuses,
  pollMs = KIOSK_POLL_MS,
  giveUpMs = KIOSK_POLL_GIVE_UP_MS,
  done,
}: PollOptions) {
  const startedAt = Date.now();
  let current = statuses;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const finish = (checkedIn: boolean) => {
    if (stopped) return;
    stopped = true;
    done(checkedIn);
  };

  const tick = async () => {
    timer = null;
    try {
      current = await Promise.all(
        current.map((status) => (status.checkInSuccess ? status : api.status(bookingKey, status.appointmentSlug))),
      );
    } catch {
      // Polling failure leads to the error step.
      finish(false);
      return;
    }
    if (stopped) return;
    const outcome = outcomeOf(current);
    if (outcome === 'success') finish(true);
    else if (outcome === 'failed' || Date.now() - startedAt > giveUpMs) finish(false);
    else timer = setTimeout(() => void tick(), pollMs);
  };

  timer = setTimeout(() => void tick(), pollMs);
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}
