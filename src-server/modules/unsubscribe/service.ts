import { UNSUBSCRIBE_API_PATH, UNSUBSCRIBE_PAGE_PATH, type UnsubscribeStatus } from '@contract/api/unsubscribe';
import type { Database, Queryable } from '../../db/connection';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Clock } from '../../platform/clock';
import { appError, type AppError } from '../../platform/errors';
import { maskEmail } from '../../platform/mask';
import type { OutboxMail } from '../../platform/outbox/outbox-repository';
import type { OutgoingMailPolicy, PreparedMail } from '../../platform/outbox/outbox-worker';
import type { SignedLinkFailure, SignedLinks } from '../../platform/signed-links';
import { UNSUBSCRIBE_URL_PLACEHOLDER } from '../notifications/public';
import { createUnsubscribeRepository, type RecipientRow } from './repository';
import { normaliseAddress, stopsWhenUnsubscribed, UNSUBSCRIBE_LINK, UNSUBSCRIBE_LINK_TTL_MS, WITHOUT_UNSUBSCRIBE_HEADERS } from './rules';

/**
 * The one-click unsubscribe (docs/rules/notifications.md#unsubscribe): the signed link each mail
 * carries, what it shows and changes, and the outbox policy that puts it into every mail and
 * leaves unsent what an unsubscribed address no longer gets.
 */

export interface UnsubscribeDeps {
  db: Database;
  clock: Clock;
  /** The portal's address (PUBLIC_URL) for the links. */
  publicUrl: string;
  /** Signed links allowing a year's lifetime (UNSUBSCRIBE_LINK_TTL_MS). */
  links: () => Promise<SignedLinks>;
  /** Why a link was refused is logged (never the token). */
  log?: { info(data: object, message: string): void };
}

const INVALID_LINK_MESSAGE =
  'This unsubscribe link is not valid: it may have been changed or may be too old. Please use the link in a recent e-mail from us.';

function invalidLink(): AppError {
  return appError('unsubscribe_link_invalid', 400, INVALID_LINK_MESSAGE);
}

const statusOf = (row: RecipientRow): UnsubscribeStatus => ({ address: maskEmail(row.address), unsubscribed: row.unsubscribed });

export function createUnsubscribeService(deps: UnsubscribeDeps) {
  const { db, clock } = deps;
  const repository = createUnsubscribeRepository(db);
  const audit = createAuditLogRepository(db);
  const refused = (reason: SignedLinkFailure | 'unknown_recipient') => deps.log?.info({ reason }, '[unsubscribe] link refused');

  /** The row id a token names; 400 for an altered, foreign or expired token. */
  async function recipientIdOf(token: string): Promise<string> {
    const checked = (await deps.links()).verify(token, UNSUBSCRIBE_LINK);
    if (!checked.ok) {
      refused(checked.reason);
      throw invalidLink();
    }
    return checked.subject;
  }

  /** The row a token names; 400 as recipientIdOf, or when the row is gone. */
  async function recipientOf(id: string, tx: Queryable = db): Promise<RecipientRow> {
    const row = await repository.find(id, tx);
    if (row === null) {
      refused('unknown_recipient');
      throw invalidLink();
    }
    return row;
  }

  /** Changes the row the token names (or nothing, when it already is so) and audits a change by the row's id, never the address. */
  async function change(token: string, action: 'unsubscribe' | 'resubscribe'): Promise<UnsubscribeStatus> {
    // Verified before the transaction: the signing key may first have to be read from the
    // database, and PGlite's one connection is the transaction's until it ends.
    const id = await recipientIdOf(token);
    return db.transaction(async (tx) => {
      const row = await recipientOf(id, tx);
      const now = clock.now();
      const changed =
        action === 'unsubscribe' ? await repository.unsubscribe(row.id, now, tx) : await repository.resubscribe(row.id, now, tx);
      if (changed) {
        await audit.record(
          {
            actor: 'mail-recipient',
            action: action === 'unsubscribe' ? 'mail.unsubscribed' : 'mail.resubscribed',
            subjectType: 'mail_recipient',
            subjectId: row.id,
            details: {},
            now,
          },
          tx,
        );
      }
      return { address: maskEmail(row.address), unsubscribed: action === 'unsubscribe' };
    });
  }

  /** The recipient's own link, signed now for a year; the token names the row, not the address. */
  async function linksFor(recipient: string): Promise<{ page: string; oneClick: string }> {
    const row = await repository.recipientForLink(normaliseAddress(recipient), clock.now());
    const token = (await deps.links()).sign({ ...UNSUBSCRIBE_LINK, subject: row.id, ttlMs: UNSUBSCRIBE_LINK_TTL_MS });
    const query = `?token=${encodeURIComponent(token)}`;
    return { page: `${deps.publicUrl}${UNSUBSCRIBE_PAGE_PATH}${query}`, oneClick: `${deps.publicUrl}${UNSUBSCRIBE_API_PATH}${query}` };
  }

  const mailPolicy: OutgoingMailPolicy = {
    async skip(mail: OutboxMail): Promise<boolean> {
      return stopsWhenUnsubscribed(mail.kind) && repository.isUnsubscribed(normaliseAddress(mail.recipient));
    },
    async prepare(mail: OutboxMail): Promise<PreparedMail> {
      if (WITHOUT_UNSUBSCRIBE_HEADERS.has(mail.kind)) return { text: mail.text, html: mail.html, headers: {} };
      const links = await linksFor(mail.recipient);
      const fill = (body: string) => body.split(UNSUBSCRIBE_URL_PLACEHOLDER).join(links.page);
      return {
        text: fill(mail.text),
        html: mail.html === null ? null : fill(mail.html),
        // RFC 8058: the HTTPS URL a provider POSTs `List-Unsubscribe=One-Click` to, and the header saying it may.
        headers: { 'List-Unsubscribe': `<${links.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      };
    },
  };

  return {
    /** Whom the link names (masked) and whether that address is unsubscribed; changes nothing. */
    async status(token: string): Promise<UnsubscribeStatus> {
      return statusOf(await recipientOf(await recipientIdOf(token)));
    },
    unsubscribe: (token: string) => change(token, 'unsubscribe'),
    resubscribe: (token: string) => change(token, 'resubscribe'),
    mailPolicy,
    /** The appointment page's per-booking unsubscribe: the same record. Answers whether this call changed it. */
    unsubscribeAddress: (address: string, now: Date, tx: Queryable): Promise<boolean> =>
      repository.unsubscribeAddress(normaliseAddress(address), now, tx),
  };
}

export type UnsubscribeService = ReturnType<typeof createUnsubscribeService>;
