import { isExternalUrl, safeRedirectUrl } from '../../platform/safe-url';

/** The query of /deny (docs/rules/patient-access.md#deny-page). */
export interface DenyQuery {
  status?: string | null;
  revoked?: string | null;
  maxAttempts?: string | null;
  message?: string | null;
  resultsExpired?: string | null;
  customMessage?: string | null;
  showClose?: string | null;
  redirectUrl?: string | null;
}

/** Every message the deny page can show; each is a key of the English catalogue. */
export type DenyMessageKey =
  | 'deny.expired'
  | 'deny.canceled'
  | 'deny.declined'
  | 'deny.removedByOperator'
  | 'deny.waitingForProtocol'
  | 'deny.restricted'
  | 'deny.revoked'
  | 'deny.resultsExpired'
  | 'deny.custom'
  | 'deny.generic'
  | 'message.max_attempts_reached'
  | 'message.max_attempts_reached_shared'
  | 'message.max_attempts_reached_results'
  | 'message.pain_score_problem'
  | 'message.booking_request_waiting_protocol_error';

export interface DenyMessage {
  key: DenyMessageKey;
  /** The customMessage, shown as text (never as HTML). */
  text?: string;
}

const STATUS_MESSAGES: Record<string, DenyMessageKey> = {
  EXPIRED: 'deny.expired',
  EXPIRED_PATIENT: 'deny.expired',
  CANCELED: 'deny.canceled',
  DECLINED_BY_PATIENT: 'deny.declined',
  REMOVED_BY_OPERATOR: 'deny.removedByOperator',
  DELETED: 'deny.removedByOperator',
  ON_HOLD: 'deny.waitingForProtocol',
};

/** Messages a max-attempts redirect may name (shared links and results). */
const MAX_ATTEMPTS_MESSAGES: Record<string, DenyMessageKey> = {
  max_attempts_reached: 'message.max_attempts_reached',
  max_attempts_reached_shared: 'message.max_attempts_reached_shared',
  max_attempts_reached_results: 'message.max_attempts_reached_results',
};

/** Other messages flows send to /deny by name (pain score, protocol). */
const NAMED_MESSAGES: Record<string, DenyMessageKey> = {
  pain_score_problem: 'message.pain_score_problem',
  booking_request_waiting_protocol_error: 'message.booking_request_waiting_protocol_error',
};

function isTrue(value: string | null | undefined): boolean {
  return value?.trim().toLowerCase() === 'true' || value?.trim() === '1';
}

function isPresent(value: string | null | undefined): boolean {
  return value !== null && value !== undefined && value.trim().toLowerCase() !== 'false';
}

/** 'message.max_attempts_reached_shared' and 'max_attempts_reached_shared' name the same message. */
function messageName(value: string | null | undefined): string {
  return (value ?? '').trim().replace(/^message\./, '');
}

function lookup(table: Record<string, DenyMessageKey>, value: string | null | undefined): DenyMessageKey | undefined {
  const name = messageName(value);
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/**
 * The deny page's message for its query, first match wins (docs/rules/patient-access.md#deny-page): status, revoked,
 * maxAttempts (the named message when known), resultsExpired, a known named message,
 * customMessage, else the generic problem. Unknown names never reach the page as text,
 * so a crafted link cannot make the portal say something it does not know.
 */
export function denyMessage(query: DenyQuery): DenyMessage {
  const status = query.status?.trim().toUpperCase();
  if (status) return { key: STATUS_MESSAGES[status] ?? 'deny.restricted' };
  if (isTrue(query.revoked)) return { key: 'deny.revoked' };
  if (isPresent(query.maxAttempts)) {
    return {
      key:
        lookup(MAX_ATTEMPTS_MESSAGES, query.message) ?? lookup(MAX_ATTEMPTS_MESSAGES, query.maxAttempts) ?? 'message.max_attempts_reached',
    };
  }
  if (isTrue(query.resultsExpired)) return { key: 'deny.resultsExpired' };
  const named = lookup(NAMED_MESSAGES, query.message);
  if (named) return { key: named };
  const custom = query.customMessage?.trim();
  if (custom) return { key: 'deny.custom', text: custom };
  return { key: 'deny.generic' };
}

/**
 * The close control and the onward link of the deny page. The link comes from the query, so anyone
 * can craft it: an absolute URL is offered only on an origin the provider trusts (the portal's own,
 * its configured sites), never as an open redirect to a look-alike phishing page.
 */
export function denyActions(query: DenyQuery, trustedOrigins: readonly string[] = []): { showClose: boolean; redirectUrl: string | null } {
  const target = safeRedirectUrl(query.redirectUrl);
  const trusted = target !== null && (!isExternalUrl(target) || trustedOrigins.includes(new URL(target).origin));
  return { showClose: isTrue(query.showClose), redirectUrl: trusted ? target : null };
}

/** Origins of the absolute links in the provider's configuration, plus the portal's own. */
export function trustedOriginsOf(links: ReadonlyArray<string | null>, ownOrigin: string): string[] {
  const origins = new Set([ownOrigin]);
  for (const link of links) {
    const safe = safeRedirectUrl(link);
    if (safe !== null && isExternalUrl(safe)) origins.add(new URL(safe).origin);
  }
  return [...origins];
}

/** Reads the deny query from the URL. */
export function readDenyQuery(params: URLSearchParams): DenyQuery {
  return {
    status: params.get('status'),
    revoked: params.get('revoked'),
    maxAttempts: params.get('maxAttempts'),
    message: params.get('message'),
    resultsExpired: params.get('resultsExpired'),
    customMessage: params.get('customMessage'),
    showClose: params.get('showClose'),
    redirectUrl: params.get('redirectUrl'),
  };
}
