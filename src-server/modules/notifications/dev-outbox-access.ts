import type { FastifyRequest } from 'fastify';
import type { DevOutboxMode } from '../../config';
import type { Queryable } from '../../db/connection';
import { servesDemoProvider } from '../../db/seed/demo-marker';

/**
 * Who may see the development outbox (docs/rules/notifications.md#development-outbox). It shows
 * names, booking links and one-time codes, so it is on only where no real patient can be
 * involved, and even then it answers only a browser on this machine.
 */

/**
 * Headers a reverse proxy adds. A proxy on the same host connects from loopback, so a request
 * carrying one of these may come from anyone on the internet.
 */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', 'via'] as const;

/** 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv6-mapped address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === '::1';
}

/**
 * A Host header naming this machine: localhost, 127.0.0.1 or [::1], with any port. Against DNS
 * rebinding: a page on another site whose name now resolves to 127.0.0.1 reaches us from the
 * loopback peer, but its requests still carry that site's name as Host.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i.test(host);
}

/**
 * The socket's own peer, never request.ip: with TRUST_PROXY set, request.ip comes from
 * X-Forwarded-For, which the client writes. And the Host a browser on this machine sends.
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.socket.remoteAddress) || !isLoopbackHost(request.headers.host)) return false;
  return PROXY_HEADERS.every((name) => request.headers[name] === undefined);
}

export interface DevOutboxState {
  enabled: boolean;
  /** Why it is on, for the start-up banner; null when off. */
  reason: string | null;
}

/** Decided once when the server starts: the configuration, and for 'demo' the provider the database serves. */
export async function devOutboxState(db: Queryable, mode: DevOutboxMode): Promise<DevOutboxState> {
  if (mode === 'on') return { enabled: true, reason: 'MAIL_DEV_OUTBOX_ENABLED=true' };
  if (mode === 'demo' && (await servesDemoProvider(db))) {
    return { enabled: true, reason: 'the demo provider is served and no SMTP_HOST or SMS_PROVIDER_URL is set' };
  }
  return { enabled: false, reason: null };
}
