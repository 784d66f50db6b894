import {
  CALLBACK_MESSAGES,
  CALLBACK_WINDOWS,
  normalisedCallbackPhone,
  STAFF_CALLBACK_LIST_CAPS,
  type CallbackRequest,
  type CallbackRequestReceived,
  type CallbackWindow,
  type MarkCallbackCalled,
  type StaffCallback,
  type StaffCallbackList,
} from '@contract/api/callbacks';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Captcha } from '../../platform/captcha/captcha';
import { captchaRequired } from '../../platform/captcha/captcha';
import type { Clock } from '../../platform/clock';
import { badRequest, conflict, isAppError, notFound } from '../../platform/errors';
import { queueListedEntry, queueMarkedEntry, queueNote } from '../../platform/staff-queue-audit';
import { createOutboxRepository } from '../../platform/outbox/outbox-repository';
import { callbackRequestedMail, MAIL_KINDS, mailContext } from '../notifications/public';
import { createCallbackLimiter, DEFAULT_CALLBACK_LIMITS, type CallbackLimits } from './callback-limits';
import { createCallbackRepository, type CallbackRow } from './repository';

/**
 * Callback requests (docs/rules/callbacks.md): a patient asks to be phoned back; the request is
 * stored and the call-centre mail queued in one transaction; staff work the queue. Audit rows
 * name who and what happened, never the patient's name, number or words.
 */

export interface CallbackServiceDeps {
  db: Database;
  clock: Clock;
  captcha: Captcha;
  secret: () => Promise<string>;
  publicUrl: string;
  limits?: CallbackLimits;
  /** Says once that no call-centre address is configured (the request is still stored). */
  warn: (message: string) => void;
}

/** Who asks, as the request route sees them. */
export interface CallbackCaller {
  ip: string;
  captcha: string | string[] | undefined;
  /** The audit's name for the client address (an HMAC prefix, as the sign-in audit). */
  clientRef: string;
  /** The portal locale the patient used (the request row keeps it). */
  locale: string;
}

const isWindow = (value: string): value is CallbackWindow => (CALLBACK_WINDOWS as readonly string[]).includes(value);
const iso = (value: Date | string): string => new Date(value).toISOString();

function toStaffCallback(row: CallbackRow): StaffCallback {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    windows: row.windows.filter(isWindow),
    reason: row.reason,
    examName: row.exam_name,
    receivedAt: iso(row.received_at),
    status: row.called_at === null ? 'open' : 'called',
    calledAt: row.called_at === null ? null : iso(row.called_at),
    calledBy: row.called_by_name,
    note: row.note,
  };
}

export function createCallbackService(deps: CallbackServiceDeps) {
  const { db, clock } = deps;
  const limits = deps.limits ?? DEFAULT_CALLBACK_LIMITS;
  const repository = createCallbackRepository(db);
  const audit = createAuditLogRepository(db);
  const limiter = createCallbackLimiter({ db, secret: deps.secret, limits });
  let warnedNoAddress = false;

  return {
    /**
     * A patient's request: the exam is checked, then the proof-of-work answer (every request
     * needs one: 403 captcha_required without), then the limits (429); only then is anything
     * written, the row and its mail together.
     */
    async request(caller: CallbackCaller, body: CallbackRequest): Promise<CallbackRequestReceived> {
      const examName = body.examSlug === undefined ? null : await repository.examName(body.examSlug);
      if (body.examSlug !== undefined && examName === null) {
        throw badRequest(CALLBACK_MESSAGES.exam, [{ in: 'body/examSlug', message: CALLBACK_MESSAGES.exam }], 'validation_failed');
      }
      if (!(await deps.captcha.verify(caller.captcha))) throw captchaRequired();
      const now = clock.now();
      const phone = normalisedCallbackPhone(body.phone);
      try {
        await limiter.admit(now, caller.ip, phone);
      } catch (error) {
        if (isAppError(error) && error.statusCode === 429) {
          await audit.record({
            actor: 'anonymous',
            action: 'callback_request_refused',
            subjectType: null,
            subjectId: null,
            details: { reason: 'too_many', client: caller.clientRef, ...(error.details as Record<string, unknown>) },
            now,
          });
        }
        throw error;
      }
      const windows = [...new Set(body.windows)];
      // What the row keeps and the call-centre mail says.
      const request = {
        firstName: body.firstName,
        lastName: body.lastName,
        phone,
        windows,
        reason: body.reason,
        examName,
        receivedAt: now,
      };
      const id = await db.transaction(async (tx) => {
        const id = await repository.insert({ ...request, locale: caller.locale }, tx);
        const recipient = await repository.callCentreEmail(tx);
        if (recipient !== null) {
          // The call centre is the provider's: its mail is in the provider's language.
          const context = await mailContext(tx, deps.publicUrl);
          const mail = await callbackRequestedMail({ ...request, timeZone: limits.timeZone }, context);
          await createOutboxRepository(tx).enqueue({ kind: MAIL_KINDS.callbackRequested, recipient, ...mail }, now, tx);
        } else if (!warnedNoAddress) {
          warnedNoAddress = true;
          deps.warn(
            '[callbacks] no call-centre address (booking_settings.call_centre_email): callback requests are stored, no mail is sent',
          );
        }
        await audit.record(
          {
            actor: 'anonymous',
            action: 'callback_requested',
            subjectType: 'callback_request',
            subjectId: id,
            details: { client: caller.clientRef, windows: windows.length, exam: examName !== null, mailed: recipient !== null },
            now,
          },
          tx,
        );
        return id;
      });
      return { id, phone, windows };
    },

    /** The staff queue; the audit row says who read it and how many, never whose requests. */
    async list(staffRef: string): Promise<StaffCallbackList> {
      const { rows, openTotal } = await repository.queue(STAFF_CALLBACK_LIST_CAPS);
      await audit.record(queueListedEntry(staffRef, 'staff_callbacks_listed', { listed: rows.length, open: openTotal }, clock.now()));
      return { items: rows.map(toStaffCallback), openTotal };
    },

    /** Marks a request called (404 unknown, 409 already called); the note is kept on the request, not in the audit. */
    async markCalled(staff: { ref: string; name: string }, id: string, body: MarkCallbackCalled): Promise<void> {
      const now = clock.now();
      const note = queueNote(body.note);
      const outcome = await repository.markCalled(id, { at: now, byRef: staff.ref, byName: staff.name, note });
      if (outcome === null) throw notFound(CALLBACK_MESSAGES.notFound);
      if (outcome === 'already') throw conflict(CALLBACK_MESSAGES.alreadyCalled);
      await audit.record(queueMarkedEntry(staff.ref, 'callback_request_called', { type: 'callback_request', id }, note, now));
    },
  };
}

export type CallbackService = ReturnType<typeof createCallbackService>;
