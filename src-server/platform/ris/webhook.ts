import { createHmac, timingSafeEqual } from 'node:crypto';
import { postDelivery } from '../outbox/network-errors';

/**
 * The clinic's RIS behind an HTTP webhook (docs/rules/check-in.md#hand-off): each hand-off is
 * POSTed as JSON to RIS_WEBHOOK_URL, signed so the RIS knows it came from the portal and was not
 * replayed: `X-Portal-Timestamp` (Unix seconds) and `X-Portal-Signature: v1=<hex>`, the
 * HMAC-SHA256 under RIS_WEBHOOK_SECRET of `<timestamp>.<body>`. `Idempotency-Key` names the
 * hand-off, so a repeat after a lost answer changes nothing at the RIS. Any 2xx is accepted.
 * The HL7 v2 adapter (hl7-ris-sender.ts) stands behind the same RisSender interface.
 */

export interface RisWebhookConfig {
  /** https, or http to localhost/127.0.0.1 (tests and the demo receiver). */
  url: string;
  /** At least 32 characters. */
  secret: string;
}

export interface RisHandoffMessage {
  /** Stable per hand-off: the RIS drops a repeat. */
  idempotencyKey: string;
  event: 'check_in.prepare' | 'check_in.complete';
  appointmentId: string;
  /** When the hand-off was queued: the form's or the check-in's time, the same on every retry. */
  queuedAt: Date;
  payload: Record<string, unknown>;
}

export interface RisSender {
  readonly configured: boolean;
  send(message: RisHandoffMessage): Promise<void>;
}

/**
 * A failed hand-off, without personal data: 'http_503', 'timeout', 'ECONNREFUSED', …
 * permanent: the RIS refused this hand-off (4xx other than 401/403/404/408/429): no retry helps.
 * transport: the RIS is unreachable or refuses us: every other hand-off would fail the same way.
 */
export class RisSendError extends Error {
  constructor(
    readonly code: string,
    readonly options: { permanent: boolean; transport: boolean },
  ) {
    super(`RIS: ${code}`);
    this.name = 'RisSendError';
  }
}

export const RIS_TIMESTAMP_HEADER = 'x-portal-timestamp';
export const RIS_SIGNATURE_HEADER = 'x-portal-signature';
/** A receiver refuses a signature older or newer than this (replay window). */
export const RIS_SIGNATURE_TOLERANCE_SECONDS = 300;

export function risSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** For a receiver (the demo RIS): the signature matches and its timestamp is within the tolerance. */
export function verifyRisSignature(secret: string, headers: { timestamp?: string; signature?: string }, body: string, now: Date): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > RIS_SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(risSignature(secret, timestamp, body));
  const given = Buffer.from(headers.signature ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function errorForStatus(status: number): RisSendError {
  const code = `http_${status}`;
  if ([401, 403, 404, 408, 429].includes(status) || status >= 500) return new RisSendError(code, { permanent: false, transport: true });
  return new RisSendError(code, { permanent: true, transport: false });
}

export const noRisSender: RisSender = {
  configured: false,
  send: () => Promise.reject(new RisSendError('ris_not_configured', { permanent: false, transport: true })),
};

export function createRisWebhookSender(config: RisWebhookConfig, options: { timeoutMs?: number; now?: () => Date } = {}): RisSender {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  return {
    configured: true,
    async send(message) {
      const body = JSON.stringify({ event: message.event, idempotencyKey: message.idempotencyKey, ...message.payload });
      const timestamp = Math.floor(now().getTime() / 1000);
      const headers = {
        'content-type': 'application/json',
        'idempotency-key': message.idempotencyKey,
        [RIS_TIMESTAMP_HEADER]: String(timestamp),
        [RIS_SIGNATURE_HEADER]: risSignature(config.secret, timestamp, body),
      };
      const response = await postDelivery(
        config.url,
        { headers, body, timeoutMs },
        (code) => new RisSendError(code, { permanent: false, transport: true }),
      );
      if (!response.ok) throw errorForStatus(response.status);
    },
  };
}
