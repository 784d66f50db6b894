import { isHttpsOrLoopbackUrl, read, type Env } from './config-parsers';
import type { RisWebhookConfig } from './platform/ris/webhook';

/**
 * The clinic's RIS for check-in hand-offs (docs/rules/check-in.md#hand-off), from RIS_WEBHOOK_URL
 * and RIS_WEBHOOK_SECRET: both or neither. Neither: outside production the demo RIS receiver
 * (src-server/dev-ris/) takes them; in production they stay queued until it is configured.
 */
export function parseRisConfig(env: Env, problem: (name: string, message: string) => void): RisWebhookConfig | null {
  const url = read(env, 'RIS_WEBHOOK_URL');
  const secret = read(env, 'RIS_WEBHOOK_SECRET');
  if (url === undefined) {
    if (secret !== undefined) problem('RIS_WEBHOOK_SECRET', 'is set but RIS_WEBHOOK_URL is not; set RIS_WEBHOOK_URL too or unset it');
    return null;
  }
  if (!isHttpsOrLoopbackUrl(url)) {
    problem(
      'RIS_WEBHOOK_URL',
      'must be an https URL such as https://ris.example.com/portal/check-in (http only to localhost or 127.0.0.1)',
    );
  }
  if (secret === undefined) problem('RIS_WEBHOOK_SECRET', 'is required when RIS_WEBHOOK_URL is set');
  else if (secret.length < 32 || /\s/.test(secret))
    problem('RIS_WEBHOOK_SECRET', 'must be at least 32 characters without spaces, e.g. `openssl rand -hex 32`');
  return { url, secret: secret ?? '' };
}
