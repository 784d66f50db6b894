import { postDelivery } from '../outbox/network-errors';

/**
 * Outgoing SMS through an HTTP provider API: POST {to, text} as JSON to SMS_PROVIDER_URL with
 * `Authorization: Bearer SMS_PROVIDER_API_KEY`; any 2xx is accepted. Like the mailer, features
 * never call it directly: they queue a row in the SMS outbox (sms-outbox-repository.ts), whose
 * worker sends and retries. Without configuration SMS is simply not offered.
 */

export interface SmsProviderConfig {
  /** https (or http to a loopback address, for tests and a local relay). */
  url: string;
  apiKey: string;
}

export interface SmsMessage {
  /** Digits, optionally with a leading +. */
  to: string;
  text: string;
}

export interface SmsSender {
  readonly configured: boolean;
  send(message: SmsMessage): Promise<void>;
}

/**
 * A failed send, described without personal data: 'http_503', 'timeout', 'ECONNREFUSED', …
 * permanent: no retry will change it (the provider refused this message: 4xx other than 408/429).
 * transport: the provider is unreachable or refuses us, so every other SMS would fail the same way.
 */
export class SmsSendError extends Error {
  readonly code: string;
  readonly permanent: boolean;
  readonly transport: boolean;

  constructor(code: string, options: { permanent: boolean; transport: boolean }) {
    super(`SMS provider: ${code}`);
    this.name = 'SmsSendError';
    this.code = code;
    this.permanent = options.permanent;
    this.transport = options.transport;
  }
}

export const noSmsSender: SmsSender = {
  configured: false,
  send: () => Promise.reject(new SmsSendError('sms_not_configured', { permanent: false, transport: true })),
};

/** Classifies an HTTP status: 2xx is success and never reaches here. */
export function errorForStatus(status: number): SmsSendError {
  const code = `http_${status}`;
  // 401/403: our key is refused, 404: wrong URL; nothing else will get through either.
  if (status === 401 || status === 403 || status === 404) return new SmsSendError(code, { permanent: false, transport: true });
  if (status === 408 || status === 429 || status >= 500) return new SmsSendError(code, { permanent: false, transport: true });
  return new SmsSendError(code, { permanent: true, transport: false });
}

export function createHttpSmsSender(config: SmsProviderConfig, options: { timeoutMs?: number } = {}): SmsSender {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    configured: true,
    async send(message) {
      const response = await postDelivery(
        config.url,
        {
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${config.apiKey}` },
          body: JSON.stringify({ to: message.to, text: message.text }),
          timeoutMs,
        },
        (code) => new SmsSendError(code, { permanent: false, transport: true }),
      );
      if (!response.ok) throw errorForStatus(response.status);
    },
  };
}
