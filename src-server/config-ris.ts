import { isHttpsOrLoopbackUrl } from './config-parsers';
import type { Rule, Values } from './config-env';
import { quote, refuse, type Parse } from './config-variable';
import type { RisWebhookConfig } from './platform/ris/webhook';

/**
 * The clinic's RIS for check-in hand-offs (docs/rules/check-in.md#hand-off), from RIS_WEBHOOK_URL
 * and RIS_WEBHOOK_SECRET: both or neither. Neither: outside production the demo RIS receiver
 * (src-server/dev-ris/) takes them; in production they stay queued until it is configured.
 * RIS_CHECK_IN chooses the wire: the webhook, or HL7 v2 to HL7_RIS_ADDRESS (ADT^A05 and ADT^A04).
 */

export const RIS_CHECK_IN_CHANNELS = ['webhook', 'hl7'] as const;
export type RisCheckIn = (typeof RIS_CHECK_IN_CHANNELS)[number];

export const risCheckIn: Parse<RisCheckIn | null> = (raw) => {
  if (raw === undefined) return null;
  return (RIS_CHECK_IN_CHANNELS as readonly string[]).includes(raw)
    ? (raw as RisCheckIn)
    : refuse(`must be webhook or hl7, got ${quote(raw)}`);
};

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

/**
 * A chosen wire needs its destination, except where a demo RIS stands in for it (outside
 * production without RIS_WEBHOOK_URL: main.ts starts both demo listeners).
 */
export const risCheckInTarget: Rule = ({ text, values }, problem) => {
  const demo = values.NODE_ENV !== true && text.RIS_WEBHOOK_URL === undefined;
  if (values.RIS_CHECK_IN === 'hl7' && text.HL7_RIS_ADDRESS === undefined && !demo) {
    problem('RIS_CHECK_IN', "hl7 needs HL7_RIS_ADDRESS, the RIS's MLLP listener: set it, or choose webhook");
  }
  if (values.RIS_CHECK_IN === 'webhook' && text.RIS_WEBHOOK_URL === undefined && !demo) {
    problem('RIS_CHECK_IN', 'webhook needs RIS_WEBHOOK_URL and RIS_WEBHOOK_SECRET: set them, or choose hl7');
  }
};

/** As chosen; unset: the webhook when RIS_WEBHOOK_URL is set, else HL7 when HL7_RIS_ADDRESS is, else the webhook (its demo or queue). */
export function risCheckInOf(values: Values): RisCheckIn {
  if (values.RIS_CHECK_IN !== null) return values.RIS_CHECK_IN;
  if (values.RIS_WEBHOOK_URL === null && values.HL7_RIS_ADDRESS !== null) return 'hl7';
  return 'webhook';
}

export function risOf(values: Values): RisWebhookConfig | null {
  return values.RIS_WEBHOOK_URL === null ? null : { url: values.RIS_WEBHOOK_URL, secret: values.RIS_WEBHOOK_SECRET ?? '' };
}
