import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DEFAULT_SHARE_NOTE_MAX_LENGTH,
  isShareEmail,
  SHARE_LIFETIME_DAYS,
  SHARE_MESSAGES,
  SHARE_PHONE_PATTERN,
  SHARED_RESULTS_PATH,
  type ShareList,
  type ShareRecord,
  type ShareRequest,
  type SharedResults,
} from '@contract/api/result-shares';
import { isResultSignInType, type SignInType } from '@contract/api/patient-access';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, forbidden, notFound, secondsUntilWindowFrees, tooManyRequests, validationError } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { createOutboxRepository } from '../../platform/outbox/outbox-repository';
import { bookingKeyRef } from '../../platform/security-audit';
import type { SignedLinks } from '../../platform/signed-links';
import { createSmsOutboxRepository } from '../../platform/sms/sms-outbox-repository';
import type { FileStorage } from '../../platform/storage';
import { createResultsRepository, PATIENT_IMAGE_LINK, PATIENT_IMAGE_LINK_TTL_MS } from '../results/public';
import { shareMailMessage, shareSmsText } from './messages';
import { createResultSharesRepository, type ShareRow } from './repository';

/**
 * Sharing a result or history with a contact (docs/rules/results.md#sharing). The link's token
 * is 32 random bytes of which only the sha256 is stored; the contact signs in with it
 * (patient-access dob-step.ts) and reads, through requireSharedSession, only what was shared.
 * Creating, revoking and opening a share, and each report a contact reads, are audited.
 */

export interface ResultSharesDeps {
  db: Database;
  clock: Clock;
  storage: FileStorage;
  publicUrl: string;
  smsConfigured: boolean;
  signedLinks: () => Promise<SignedLinks>;
  settings: () => Promise<{ providerName: string; noteMaxLength: number | undefined }>;
}

/** At most this many shares a booking may send in an hour (each sends an e-mail or SMS). */
export const SHARES_PER_HOUR = 20;
export const SHARE_WINDOW_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The patient's session: which booking, and whether it sees the whole history. */
export interface Sharer {
  bookingKey: string;
  type: SignInType;
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
const toRecord = (row: ShareRow): ShareRecord => ({ ...row });

/** EMAIL or PHONE by the value itself (docs/rules/results.md#sharing): a phone only when SMS is on; null when neither. */
export function contactTypeOf(value: string, smsEnabled: boolean): 'EMAIL' | 'PHONE' | null {
  if (isShareEmail(value)) return 'EMAIL';
  return smsEnabled && SHARE_PHONE_PATTERN.test(value) ? 'PHONE' : null;
}

export function createResultShares(deps: ResultSharesDeps) {
  const { db, clock, storage } = deps;
  const repository = createResultSharesRepository(db);
  const results = createResultsRepository(db);
  const audit = createAuditLogRepository(db);
  const mailOutbox = createOutboxRepository(db);
  const smsOutbox = createSmsOutboxRepository(db);

  async function sharedByOf(bookingKey: string): Promise<{ sharedBy: string; firstName: string }> {
    const name = await repository.sharerName(bookingKey);
    if (name === null) throw notFound('There is no such booking.');
    return { sharedBy: `${name.firstName} ${name.lastName.slice(0, 1)}.`, firstName: name.firstName };
  }

  /** What a contact opens through a share is audited on the booking (by its reference, never the key), naming the share. */
  async function auditContactOpened(
    action: 'result.report_opened' | 'result.pdf_opened',
    opened: { bookingKey: string; shareId: string },
    details: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await audit.record({
      actor: 'contact',
      action,
      subjectType: 'booking_key',
      subjectId: bookingKeyRef(opened.bookingKey),
      details: { share: opened.shareId, ...details },
      now,
    });
  }

  return {
    async list(bookingKey: string): Promise<ShareList> {
      const settings = await deps.settings();
      return {
        shares: (await repository.list(bookingKey)).map(toRecord),
        smsEnabled: deps.smsConfigured,
        noteMaxLength: settings.noteMaxLength ?? DEFAULT_SHARE_NOTE_MAX_LENGTH,
      };
    },

    async create(sharer: Sharer, request: ShareRequest): Promise<ShareRecord> {
      const settings = await deps.settings();
      const noteMaxLength = settings.noteMaxLength ?? DEFAULT_SHARE_NOTE_MAX_LENGTH;
      const contact = request.contactDetails.trim();
      const contactType = contactTypeOf(contact, deps.smsConfigured);
      if (contactType === null)
        throw appError('invalid_contact_details', 400, 'Please enter a valid e-mail address or phone number.', [
          { in: 'body/contactDetails', message: SHARE_MESSAGES.invalidContactDetails },
        ]);
      if (contactType !== request.contactDetailsType)
        throw validationError('contactDetailsType', `The contact is ${contactType === 'EMAIL' ? 'an e-mail address' : 'a phone number'}.`);
      const note = request.note === undefined || request.note === '' ? null : request.note;
      if (note !== null && note.length > noteMaxLength) throw validationError('note', `The note is at most ${noteMaxLength} characters.`);
      // Both results sign-ins prove the same (date of birth and a code to the contact on file), so
      // either may share the history: one sign-in per visit. The routes accept only those.
      if (request.type === 'HISTORY' && !isResultSignInType(sharer.type))
        throw forbidden('Sign in to your results to share your whole history.');

      const now = clock.now();
      if ((await results.reportsOf(sharer.bookingKey, request.type, now)).length === 0)
        throw appError('result_not_available', 404, 'There is no released report to share yet.');
      const { sharedBy } = await sharedByOf(sharer.bookingKey);
      const token = randomToken(32);
      const expiresAt = new Date(now.getTime() + SHARE_LIFETIME_DAYS * DAY_MS);
      const message = {
        providerName: settings.providerName,
        sharedBy,
        contactName: request.contactName === undefined || request.contactName === '' ? null : request.contactName,
        type: request.type,
        note,
        link: `${deps.publicUrl}${SHARED_RESULTS_PATH}#${token}`,
        validUntil: expiresAt.toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
      };

      const id = await db.transaction(async (tx) => {
        const recent = await repository.countSince(sharer.bookingKey, new Date(now.getTime() - SHARE_WINDOW_MS), tx);
        // Past the limit: wait until the oldest counted share leaves the hour.
        if (recent.count >= SHARES_PER_HOUR) return { refusedFor: secondsUntilWindowFrees(recent.oldest, SHARE_WINDOW_MS, now) };
        const shareId = await repository.insert(
          {
            bookingKey: sharer.bookingKey,
            type: request.type,
            contactDetails: contact,
            contactType,
            contactName: message.contactName,
            note,
            tokenSha256: sha256Hex(token),
            now,
            expiresAt,
          },
          tx,
        );
        if (contactType === 'EMAIL')
          await mailOutbox.enqueue(
            { kind: 'result_share', recipient: contact, ...(await shareMailMessage(tx, deps.publicUrl, message, expiresAt)) },
            now,
            tx,
          );
        else await smsOutbox.enqueue({ kind: 'result_share', recipient: contact, text: shareSmsText(message) }, now, tx);
        await audit.record(
          {
            actor: 'patient',
            action: 'result.share_created',
            subjectType: 'booking_key',
            subjectId: bookingKeyRef(sharer.bookingKey),
            details: { share: shareId, type: request.type, contactType },
            now,
          },
          tx,
        );
        return shareId;
      });
      if (typeof id !== 'string') throw tooManyRequests('You have shared a lot in the last hour. Please try again later.', id.refusedFor);
      const created = (await repository.list(sharer.bookingKey)).find((row) => row.id === id);
      if (created === undefined) throw new Error('[result-shares] the new share is not listed');
      return toRecord(created);
    },

    /** Revokes at once: the contact's next request is refused (requireSharedSession). 404 for another booking's share. */
    async revoke(bookingKey: string, id: string): Promise<ShareRecord> {
      const now = clock.now();
      const revoked = await db.transaction(async (tx) => {
        if (!(await repository.revoke(bookingKey, id, now, tx))) return false;
        await audit.record(
          {
            actor: 'patient',
            action: 'result.share_revoked',
            subjectType: 'booking_key',
            subjectId: bookingKeyRef(bookingKey),
            details: { share: id },
            now,
          },
          tx,
        );
        return true;
      });
      const row = revoked ? (await repository.list(bookingKey)).find((share) => share.id === id) : undefined;
      if (row === undefined) throw notFound('There is no such share.');
      return toRecord(row);
    },

    /** What a contact's session reads: the shared result, or the history, read-only. */
    async sharedResults(session: { bookingKey: string; shareId: string }): Promise<SharedResults> {
      const share = await repository.shareOf(session.shareId);
      if (share === null) throw notFound('There is no such share.');
      const now = clock.now();
      const reports = await results.reportsOf(share.bookingKey, share.type, now);
      const links = await deps.signedLinks();
      const { sharedBy, firstName } = await sharedByOf(share.bookingKey);
      await auditContactOpened(
        'result.report_opened',
        { bookingKey: share.bookingKey, shareId: session.shareId },
        { reports: reports.length },
        now,
      );
      return {
        type: share.type,
        patientFirstName: firstName,
        sharedBy,
        results: reports.map((report) => ({
          resultId: report.resultId,
          examName: report.examName,
          clinicName: report.clinicName,
          startsAt: report.startsAt,
          timeZone: report.timeZone,
          reportText: report.reportText,
          reportedAt: report.reportedAt,
          referrerName: report.referrerName,
          imageViewerLink:
            report.studyInstanceUid === null
              ? null
              : links.sign({ ...PATIENT_IMAGE_LINK, subject: report.resultId, ttlMs: PATIENT_IMAGE_LINK_TTL_MS }),
        })),
      };
    },

    /** One shared report's PDF; 404 for any report the share does not show. */
    async sharedPdf(session: { shareId: string }, resultId: string): Promise<{ stream: Readable; size: number; fileName: string }> {
      const share = await repository.shareOf(session.shareId);
      const now = clock.now();
      const report =
        share === null ? undefined : (await results.reportsOf(share.bookingKey, share.type, now)).find((row) => row.resultId === resultId);
      if (share === null || report === undefined) throw notFound('There is no such report.');
      const file = await storage.open(report.pdfKey);
      if (file === null) throw new Error(`[result-shares] the PDF of report ${resultId} is missing from the file storage`);
      const opened = { bookingKey: share.bookingKey, shareId: session.shareId };
      await auditContactOpened('result.pdf_opened', opened, { accessionNumber: report.accessionNumber }, now);
      return { ...file, fileName: `report-${report.accessionNumber}.pdf` };
    },
  };
}

export type ResultSharesService = ReturnType<typeof createResultShares>;
