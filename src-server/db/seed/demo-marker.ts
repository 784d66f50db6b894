import type { Queryable } from '../connection';

/**
 * How the server knows it serves the demo provider the seed wrote (seed.ts): the provider row's
 * environment profiles hold 'demo' (resources/demo-provider/provider.json) and it does not call
 * itself production. A real provider's row says otherwise, and development conveniences that show
 * patients' data (the development outbox, the banner's demo link) stay off for it.
 */

export const DEMO_PROFILE = 'demo';

/**
 * The demo provider's own fixed demo booking (Liam Example in resources/demo-provider/appointments.json),
 * the one the README links to. No other booking key is ever printed.
 */
export const DEMO_APPOINTMENT_KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';

/** Statuses of an appointment a patient can still open and act on. */
const LIVE_STATUSES = ['BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN'];

/** True when every provider row is the demo one (and there is one); false on any doubt, including no schema yet. */
export async function servesDemoProvider(db: Queryable): Promise<boolean> {
  try {
    const rows = await db.query<{ providers: number; demo: boolean | null }>(
      `select count(*)::int as providers,
              bool_and((environment_config -> 'profiles') @> jsonb_build_array($1::text)
                       and coalesce(environment_config ->> 'production', 'false') = 'false') as demo
         from provider`,
      [DEMO_PROFILE],
    );
    const row = rows[0];
    return row !== undefined && row.providers > 0 && row.demo === true;
  } catch {
    return false;
  }
}

/**
 * The demo appointment's booking key while the demo provider is served and the appointment is
 * still live (not cancelled, declined, expired or deleted); otherwise null.
 */
export async function liveDemoAppointmentKey(db: Queryable): Promise<string | null> {
  if (!(await servesDemoProvider(db))) return null;
  const rows = await db.query<{ booking_key: string }>(
    `select booking_key from appointment
      where booking_key = $1 and status = any(array(select jsonb_array_elements_text($2::jsonb)))`,
    [DEMO_APPOINTMENT_KEY, JSON.stringify(LIVE_STATUSES)],
  );
  return rows[0]?.booking_key ?? null;
}
