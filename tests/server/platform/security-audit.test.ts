import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyRef } from '../../../src-server/modules/patient-access/service';
import {
  AUDIT_ROWS_PER_CLIENT_MINUTE,
  AUTHORIZATION_FAILED,
  AUTHORIZATION_FAILURES_SUPPRESSED,
  bookingKeyRef,
} from '../../../src-server/platform/security-audit';
import { SESSION_REQUIRED_MESSAGE } from '../../../src-server/modules/patient-access/public';
import { SEED_NOW, backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';
import { AMELIA, authenticate, client, LIAM, newAddress, setOtpRequired } from '../modules/patient-access/sign-in-kit';

// Refused requests go to audit_log (docs/rules/security.md#audit-log): who (session and client
// references), what (method, route pattern, booking-key reference, reason), when (UTC) — rate
// limited per client, and never at the cost of the refusal itself.

const STAFF_TOKEN = 'staff-token-for-audit-tests-0123456789';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

type AuditRow = {
  id: number;
  occurred_at: string;
  actor: string;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  details: Record<string, unknown>;
  text: string;
};

describe.each(backends())('authorization failures in the audit log on %s', (backend) => {
  const server = useTestApp({ backend, env: { STAFF_API_TOKEN_SHA256: sha256(STAFF_TOKEN) } });
  const { clock } = server;

  async function rowsSince(id: number, action?: string): Promise<AuditRow[]> {
    return server.db.query<AuditRow>(
      `select id::int as id, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at, actor, action,
              subject_type, subject_id, details, a::text as text
         from audit_log a where id > $1 and ($2::text is null or action = $2) order by id`,
      [id, action ?? null],
    );
  }
  async function lastId(): Promise<number> {
    const [row] = await server.db.query<{ id: number }>(`select coalesce(max(id), 0)::int as id from audit_log`);
    return row?.id ?? 0;
  }
  /** The HMAC reference the sign-in audit gives the browser's address. */
  async function signedIn(address: string) {
    await setOtpRequired(server.db, false);
    const browser = client(server.app, address);
    expect((await authenticate(browser, AMELIA)).statusCode).toBe(200);
    const [row] = await server.db.query<{ client: string }>(
      `select details->>'client' as client from audit_log where action = 'patient_sign_in_succeeded' order by id desc limit 1`,
    );
    return { browser, clientRef: row?.client ?? '' };
  }

  it('names the booking key as the sign-in audit does', () => {
    expect(bookingKeyRef(LIAM.bookingKey)).toBe(keyRef(LIAM.bookingKey));
  });

  it('leaves the "am I signed in?" check of a browser with no session out, and records it with another booking’s session', async () => {
    const before = await lastId();
    const fresh = client(server.app, newAddress());
    const check = (key: string) => fresh.request('GET', `/api/patient-access/session?bookingKey=${key}&type=APPOINTMENT`);
    expect((await check(LIAM.bookingKey)).statusCode).toBe(401);
    expect(await rowsSince(before, AUTHORIZATION_FAILED)).toEqual([]);

    const { browser } = await signedIn(newAddress());
    const afterSignIn = await lastId();
    const response = await browser.request('GET', `/api/patient-access/session?bookingKey=${LIAM.bookingKey}&type=APPOINTMENT`);
    expect(response.statusCode).toBe(401);
    expect((await rowsSince(afterSignIn, AUTHORIZATION_FAILED)).map((row) => row.details.reason)).toEqual([
      'patient_session_other_booking',
    ]);
  });

  it('records a cross-booking request once: session and client references, method, route pattern, key reference, UTC time', async () => {
    clock.set(SEED_NOW);
    const address = newAddress();
    const { browser, clientRef } = await signedIn(address);
    const since = await lastId();
    const response = await browser.request('GET', `/api/appointments/${LIAM.bookingKey}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'unauthorized', message: SESSION_REQUIRED_MESSAGE });

    const rows = await rowsSince(since);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    const session = sha256(browser.token ?? '').slice(0, 16);
    expect(row).toMatchObject({
      occurred_at: SEED_NOW,
      actor: `session:${session}`,
      action: AUTHORIZATION_FAILED,
      subject_type: 'booking_key',
      subject_id: keyRef(LIAM.bookingKey),
      details: {
        method: 'GET',
        route: '/api/appointments/:bookingKey',
        reason: 'patient_session_other_booking',
        client: clientRef,
        session,
      },
    });
    expect(clientRef).toMatch(/^[0-9a-f]{16}$/);
    for (const secret of [LIAM.bookingKey, AMELIA.bookingKey, browser.token ?? '-', address]) expect(row?.text).not.toContain(secret);
  });

  it('records the staff token check and the CSRF guard, never the token or the key in clear', async () => {
    const address = newAddress();
    const since = await lastId();
    const key = 'pVC8vuYWYJuWi6jKwcf5Cg';
    const put = (authorization: string | null) =>
      server.app.inject({
        method: 'PUT',
        url: `/api/booking-requests/${key}/status`,
        remoteAddress: address,
        headers: authorization === null ? {} : { authorization },
        payload: { status: 'BOOKED' },
      });
    expect((await put(null)).statusCode).toBe(403);
    expect((await put('Bearer not-the-staff-token')).statusCode).toBe(403);
    const csrf = await server.app.inject({
      method: 'POST',
      url: `/api/appointments/${LIAM.bookingKey}/cancel`,
      remoteAddress: address,
      headers: { origin: 'https://evil.example' },
      payload: {},
    });
    expect(csrf.statusCode).toBe(403);

    const rows = await rowsSince(since, AUTHORIZATION_FAILED);
    expect(rows.map((row) => [row.details.method, row.details.route, row.details.reason, row.subject_id])).toEqual([
      ['PUT', '/api/booking-requests/:bookingKey/status', 'staff_token_missing', keyRef(key)],
      ['PUT', '/api/booking-requests/:bookingKey/status', 'staff_token_wrong', keyRef(key)],
      ['POST', '/api/appointments/:bookingKey/cancel', 'csrf_foreign_origin', keyRef(LIAM.bookingKey)],
    ]);
    for (const row of rows) {
      expect(row.actor).toMatch(/^client:[0-9a-f]{16}$/);
      for (const secret of ['not-the-staff-token', key, LIAM.bookingKey, address]) expect(row.text).not.toContain(secret);
    }
  });

  it('writes at most the per-minute cap for 500 refusals from one client, then one row with the suppressed count', async () => {
    clock.set('2026-03-10T02:00:00.000Z');
    const address = newAddress();
    const since = await lastId();
    const refused = async (): Promise<void> => {
      const response = await server.app.inject({ method: 'GET', url: `/api/appointments/${LIAM.bookingKey}`, remoteAddress: address });
      expect(response.statusCode).toBe(401);
    };
    for (let batch = 0; batch < 10; batch += 1) await Promise.all(Array.from({ length: 50 }, refused));
    const capped = await rowsSince(since);
    expect(capped).toHaveLength(AUDIT_ROWS_PER_CLIENT_MINUTE);
    const clientRef = capped[0]?.details.client;

    // The minute turns over: the next refusal first writes what was left out.
    clock.advance(60_000);
    await refused();
    const rows = await rowsSince(since);
    expect(rows.length).toBeLessThanOrEqual(AUDIT_ROWS_PER_CLIENT_MINUTE + 2);
    const suppressed = rows.filter((row) => row.action === AUTHORIZATION_FAILURES_SUPPRESSED);
    expect(suppressed).toHaveLength(1);
    expect(suppressed[0]?.details).toMatchObject({
      client: clientRef,
      count: 500 - AUDIT_ROWS_PER_CLIENT_MINUTE,
      windowStart: '2026-03-10T02:00:00.000Z',
      windowEnd: '2026-03-10T02:01:00.000Z',
    });
    expect(rows.at(-1)?.action).toBe(AUTHORIZATION_FAILED);
    clock.set(SEED_NOW);
  });

  it('writes the suppressed count when the minute ends even without another refusal (flush)', async () => {
    clock.set('2026-03-10T03:00:00.000Z');
    const address = newAddress();
    const since = await lastId();
    for (let index = 0; index < AUDIT_ROWS_PER_CLIENT_MINUTE + 3; index += 1) {
      await server.app.inject({ method: 'GET', url: `/api/appointments/${LIAM.bookingKey}`, remoteAddress: address });
    }
    await server.app.securityAudit.flush();
    expect(await rowsSince(since, AUTHORIZATION_FAILURES_SUPPRESSED)).toHaveLength(0);
    clock.advance(61_000);
    await server.app.securityAudit.flush();
    const suppressed = await rowsSince(since, AUTHORIZATION_FAILURES_SUPPRESSED);
    expect(suppressed.map((row) => row.details.count)).toEqual([3]);
    clock.set(SEED_NOW);
  });

  it('still answers 401 (not 500) when the audit log cannot be written', async () => {
    await server.db.query(
      `alter table audit_log add constraint audit_refusals_blocked check (action <> '${AUTHORIZATION_FAILED}') not valid`,
    );
    try {
      const since = await lastId();
      const response = await server.app.inject({ method: 'GET', url: `/api/appointments/${LIAM.bookingKey}`, remoteAddress: newAddress() });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'unauthorized', message: SESSION_REQUIRED_MESSAGE });
      expect(await rowsSince(since, AUTHORIZATION_FAILED)).toEqual([]);
    } finally {
      await server.db.query(`alter table audit_log drop constraint audit_refusals_blocked`);
    }
  });
});
