import { isHttpsOrLoopbackUrl } from './config-parsers';
import type { Rule, Values } from './config-env';
import { refuse, type Parse } from './config-variable';
import type { RisWebhookConfig } from './platform/ris/webhook';

/**
 * The clinic's RIS for check-in hand-offs (docs/rules/check-in.md#hand-off), from RIS_WEBHOOK_URL
 * and RIS_WEBHOOK_SECRET: both or neither. Neither: outside production the demo RIS receiver
 * (src-server/dev-ris/) takes them; in production they stay queued until it is configured.
 */

export const risWebhookUrl: Parse<string | null> = (raw) =>
  raw !== undefined && !isHttpsOrLoopbackUrl(raw)
    ? refuse('must be an https URL such as https://ris.example.com/portal/check-in (http only to localhost or 127.0.0.1)')
    : (raw ?? null);

// Never quoted back: it is a secret.
export const risWebhookSecret: Parse<string | null> = (raw) =>
  raw !== undefined && (raw.length < 32 || /\s/.test(raw))
    ? refuse('must be at least 32 characters without spaces, e.g. `openssl rand -hex 32`')
    : (raw ?? null);

export const risSecretRequired: Rule = ({ text }, problem) => {
  if (text.RIS_WEBHOOK_URL !== undefined && text.RIS_WEBHOOK_SECRET === undefined)
    problem('RIS_WEBHOOK_SECRET', 'is required when RIS_WEBHOOK_URL is set');
};

export function risOf(values: Values): RisWebhookConfig | null {
  return values.RIS_WEBHOOK_URL === null ? null : { url: values.RIS_WEBHOOK_URL, secret: values.RIS_WEBHOOK_SECRET ?? '' };
}
