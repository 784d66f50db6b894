import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createAuditLogRepository, type AuditEntry } from '../db/audit-log';
import type { Queryable } from '../db/connection';
import type { Clock } from './clock';

/**
 * Refused requests in the audit log (docs/rules/security.md#audit-log): who (the session's hashed
 * reference, the client address as an HMAC prefix), what (method, route pattern, the booking key
 * as a sha256 prefix, why), when (UTC) — never a booking key, session token, bearer token or
 * address in clear.
 *
 * So an attack cannot flood the log, each client reference gets at most
 * AUDIT_ROWS_PER_CLIENT_MINUTE rows per minute (and all clients together
 * AUDIT_ROWS_PER_MINUTE). The rest are counted in this process and written as one
 * 'authorization_failures_suppressed' row per client (with the count) when the minute turns
 * over: at the next refusal, by a timer, or when the server closes. The counts live in memory:
 * several server processes each keep their own cap, and a crash loses at most one minute of
 * counts (never a written row).
 *
 * Writing is best effort: a failed write is logged (by error code only) and never changes the
 * refusal the client gets.
 */

export const AUTHORIZATION_FAILED = 'authorization_failed';
export const AUTHORIZATION_FAILURES_SUPPRESSED = 'authorization_failures_suppressed';
export const AUDIT_ROWS_PER_CLIENT_MINUTE = 10;
export const AUDIT_ROWS_PER_MINUTE = 300;
export const AUDIT_WINDOW_MS = 60_000;
/** Suppressed-count rows per minute, one per client; clients beyond it share one row (client '*'). */
const SUPPRESSED_ROWS_PER_MINUTE = 20;
/** Clients tracked per minute; more (an attack from many addresses) share the '*' bucket. */
const MAX_TRACKED_CLIENTS = 10_000;
const FLUSH_EVERY_MS = 15_000;

/** Why a request was refused, and which booking key it named (written only as its reference). */
export interface AuthorizationRefusal {
  reason: string;
  bookingKey?: unknown;
  /** Who, when the refusing guard knows better than the patient cookie or the address (a staff person's reference). */
  actor?: string;
}

export interface SecurityAudit {
  /** The client address as the sign-in audit names it: an HMAC prefix ('unavailable' when the secret cannot be read). */
  clientRef(request: FastifyRequest): Promise<string>;
  /** Records a refused request, within the per-client cap; never throws. */
  refused(request: FastifyRequest, refusal: AuthorizationRefusal): Promise<void>;
  /** Writes the suppressed counts of a minute that has ended. */
  flush(): Promise<void>;
  /**
   * Records a warning about the service as a whole, not one refused request (a storage budget
   * filling up): an audit row by 'system' and a warn log line. The caller raises each warning
   * once per event, so it is not capped; never throws.
   */
  warning(request: FastifyRequest, event: SecurityWarning): Promise<void>;
}

export interface SecurityWarning {
  action: string;
  /** The log line's text (no personal data). */
  message: string;
  details: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    securityAudit: SecurityAudit;
  }
}

export interface SecurityAuditOptions {
  db: Queryable;
  clock: Clock;
  /** The key of the client-address HMAC; the sign-in audit's secret, so both name a client alike. */
  secret: () => Promise<string>;
  /** The patient session cookie: its token is named by a sha256 prefix. */
  sessionCookieName: string;
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
/** How the audit log names a booking key (as keyRef in src-server/modules/patient-access/service.ts). */
export const bookingKeyRef = (bookingKey: string): string => sha256Hex(bookingKey).slice(0, 16);

function cookieValue(header: string | string[] | undefined, name: string): string | null {
  const text = Array.isArray(header) ? header.join(';') : (header ?? '');
  for (const part of text.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

interface ClientCount {
  written: number;
  suppressed: number;
}

export function registerSecurityAudit(app: FastifyInstance, options: SecurityAuditOptions): SecurityAudit {
  const auditLog = createAuditLogRepository(options.db);
  const { clock } = options;
  let secretPromise: Promise<string> | null = null;
  let windowStart = Math.floor(clock.now().getTime() / AUDIT_WINDOW_MS) * AUDIT_WINDOW_MS;
  let counts = new Map<string, ClientCount>();
  let writtenInWindow = 0;

  function secret(): Promise<string> {
    secretPromise ??= options.secret().catch((error: unknown) => {
      secretPromise = null;
      throw error;
    });
    return secretPromise;
  }

  async function clientRef(request: FastifyRequest): Promise<string> {
    try {
      return createHmac('sha256', await secret())
        .update(`ip:${request.ip}`)
        .digest('hex')
        .slice(0, 16);
    } catch {
      return 'unavailable';
    }
  }

  /** Ends the minute when the clock has moved past it; answers the suppressed-count rows to write. */
  function roll(now: number): AuditEntry[] {
    if (now < windowStart + AUDIT_WINDOW_MS) return [];
    const ended = { from: new Date(windowStart).toISOString(), to: new Date(windowStart + AUDIT_WINDOW_MS).toISOString() };
    const suppressed = [...counts].filter(([, count]) => count.suppressed > 0);
    counts = new Map();
    writtenInWindow = 0;
    windowStart = Math.floor(now / AUDIT_WINDOW_MS) * AUDIT_WINDOW_MS;
    const named = suppressed.slice(0, SUPPRESSED_ROWS_PER_MINUTE);
    const rest = suppressed.slice(SUPPRESSED_ROWS_PER_MINUTE).reduce((sum, [, count]) => sum + count.suppressed, 0);
    const rows = named.map(([client, count]) => ({ client, count: count.suppressed }));
    if (rest > 0) rows.push({ client: '*', count: rest });
    return rows.map(({ client, count }) => ({
      actor: `client:${client}`,
      action: AUTHORIZATION_FAILURES_SUPPRESSED,
      subjectType: null,
      subjectId: null,
      details: { client, count, windowStart: ended.from, windowEnd: ended.to },
      now: new Date(now),
    }));
  }

  async function write(entries: AuditEntry[], request: FastifyRequest | null): Promise<void> {
    for (const entry of entries) {
      try {
        await auditLog.record(entry);
      } catch (error) {
        const code = error instanceof Error && 'code' in error ? String(error.code) : 'unknown';
        (request?.log ?? app.log).warn({ code, action: entry.action }, '[audit] a refused request could not be recorded');
      }
    }
  }

  const audit: SecurityAudit = {
    clientRef,

    async refused(request, refusal) {
      try {
        const client = await clientRef(request);
        const token = cookieValue(request.headers.cookie, options.sessionCookieName);
        const session = token === null || token === '' ? null : sha256Hex(token).slice(0, 16);
        const now = clock.now();
        const entries = roll(now.getTime());
        const bucket = counts.has(client) || counts.size < MAX_TRACKED_CLIENTS ? client : '*';
        const count = counts.get(bucket) ?? { written: 0, suppressed: 0 };
        counts.set(bucket, count);
        if (count.written < AUDIT_ROWS_PER_CLIENT_MINUTE && writtenInWindow < AUDIT_ROWS_PER_MINUTE) {
          count.written += 1;
          writtenInWindow += 1;
          const keyRef = typeof refusal.bookingKey === 'string' && refusal.bookingKey !== '' ? bookingKeyRef(refusal.bookingKey) : null;
          entries.push({
            actor: refusal.actor ?? (session === null ? `client:${client}` : `session:${session}`),
            action: AUTHORIZATION_FAILED,
            subjectType: keyRef === null ? null : 'booking_key',
            subjectId: keyRef,
            details: {
              method: request.method,
              route: request.routeOptions.url ?? null,
              reason: refusal.reason,
              client,
              ...(session === null ? {} : { session }),
            },
            now,
          });
        } else {
          count.suppressed += 1;
        }
        await write(entries, request);
      } catch (error) {
        const code = error instanceof Error && 'code' in error ? String(error.code) : 'unknown';
        request.log.warn({ code }, '[audit] a refused request could not be recorded');
      }
    },

    async flush() {
      await write(roll(clock.now().getTime()), null);
    },

    async warning(request, event) {
      request.log.warn({ action: event.action, ...event.details }, event.message);
      await write(
        [{ actor: 'system', action: event.action, subjectType: null, subjectId: null, details: event.details, now: clock.now() }],
        request,
      );
    },
  };

  app.decorate('securityAudit', audit);
  app.jobs.every(FLUSH_EVERY_MS, 'security-audit.flush', () => audit.flush());
  app.addHook('onClose', async () => {
    // What was counted in the last minute is written now, whether or not the minute has ended.
    await write(roll(windowStart + AUDIT_WINDOW_MS), null);
  });
  return audit;
}
