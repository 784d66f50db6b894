import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CAPTCHA_HEADER } from '@contract/api/captcha';
import type { Database, Queryable } from '../../db/connection';
import { captchaRequired, type Captcha } from '../../platform/captcha/captcha';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import type { AttachmentSettingsRow } from './repository';
import type { StreamLimit } from './upload-stream';
import { createUploadBudgetRepository } from './upload-budget-repository';

/**
 * The budget of uploads under temporary booking keys (docs/rules/attachments.md#limits), where
 * no account stands behind the bytes. Signed-in patients and staff are not limited here (their
 * booking's quota is). From one client address in the rolling window: at most
 * temporary_bytes_per_client bytes (429 with Retry-After past it), and after
 * temporary_uploads_before_captcha uploads each needs a solved proof-of-work answer (403
 * captcha_required). All temporary documents together: at most temporary_bytes_total (507).
 *
 * Bytes are reserved before the file is read, under one lock, so concurrent uploads cannot
 * overrun a budget: the Content-Length when sent (else the largest file), and the stream is
 * refused past the reservation. The reservation is settled to the stored size with the row, and
 * deleted when the upload is refused. The client is an HMAC of its address with the server secret.
 */

/** Percentages of temporary_bytes_total at which a warning is raised, once per crossing. */
export const BUDGET_ALERT_PERCENTS = [50, 80] as const;
export const BUDGET_ALERT_ACTION = 'attachment.temporary_storage_warning';
/** A reservation not settled within this time is a crashed upload's: it no longer holds global bytes. */
const PENDING_MS = 60 * 60_000;

export interface UploadBudgetDeps {
  db: Database;
  clock: Clock;
  captcha: Captcha;
  /** The server secret the address HMAC derives from (as the booking limits'). */
  secret: () => Promise<string>;
}

export interface Reservation {
  /** The stream's limit: past the reserved bytes it is refused (429). */
  streamLimit: StreamLimit;
  /** In the transaction that writes the row: the reservation becomes the stored size. */
  settle(size: number, tx: Queryable): Promise<void>;
  /** The upload was refused or failed: its bytes are given back. Never throws. */
  release(): Promise<void>;
  /** After the row is written: warns once when the temporary total has crossed a level. Never throws. */
  afterStored(): Promise<void>;
}

/** 429 too_many_requests; details.retryAfterSeconds becomes the Retry-After header (app.ts). */
export function uploadBudgetReached(retryAfterSeconds: number): AppError {
  return new AppError(
    'too_many_requests',
    429,
    'Too many documents have been uploaded from this connection. Please try again later, or bring your documents on the day.',
    { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) },
  );
}

/** 507: the storage set aside for documents uploaded while booking is full; existing bookings are not affected. */
export function temporaryStorageFull(): AppError {
  return new AppError(
    'insufficient_storage',
    507,
    'We cannot take more documents while booking right now. Please book without it and bring the document on the day, or upload it after booking.',
  );
}

function declaredLength(request: FastifyRequest): number | null {
  const value = Number(request.headers['content-length']);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** Seconds until enough of the client's oldest uploads leave the window to free `need` bytes. */
function retryAfter(rows: ReadonlyArray<{ bytes: number; at: number }>, need: number, windowMs: number, now: number): number {
  let freed = 0;
  for (const row of rows) {
    freed += row.bytes;
    if (freed >= need) return (row.at + windowMs - now) / 1000;
  }
  return windowMs / 1000;
}

export function createUploadBudget(deps: UploadBudgetDeps) {
  const { db, clock, captcha } = deps;
  const repository = createUploadBudgetRepository(db);

  /** Raises each level the total is past once (a row per level); a level below the total is cleared for its next crossing. */
  async function alert(request: FastifyRequest, settings: AttachmentSettingsRow): Promise<void> {
    const budget = Number(settings.temporary_bytes_total);
    const stored = await repository.temporaryBytes(null);
    for (const level of BUDGET_ALERT_PERCENTS) {
      if (stored * 100 < budget * level) {
        await repository.clearAlert(level);
        continue;
      }
      if (!(await repository.raiseAlert(level, clock.now()))) continue;
      await request.server.securityAudit.warning(request, {
        action: BUDGET_ALERT_ACTION,
        message: `[attachments] documents uploaded while booking have passed ${level}% of their storage budget`,
        details: { levelPercent: level, storedBytes: stored, budgetBytes: budget },
      });
    }
  }

  return {
    /**
     * Reserves the bytes of one temporary upload before a byte of the file is read; throws 403
     * captcha_required, 429 (with Retry-After) or 507 instead when a budget says no.
     */
    async reserve(request: FastifyRequest, settings: AttachmentSettingsRow): Promise<Reservation> {
      const now = clock.now();
      const windowMs = settings.temporary_budget_window_hours * 60 * 60_000;
      const client = createHmac('sha256', await deps.secret())
        .update(`ip:${request.ip}`)
        .digest('hex');
      // An answer sent is checked (and used up) before the lock: checking takes a database write of its own.
      const answer = request.headers[CAPTCHA_HEADER];
      const solved = answer !== undefined && (await captcha.verify(answer));
      const declared = declaredLength(request);
      const perClient = Number(settings.temporary_bytes_per_client);
      const reserved = await db.transaction(
        async (tx): Promise<{ refused: AppError } | { id: string; bytes: number; overRetry: number }> => {
          // One lock for every temporary reservation: the sums below cannot be overtaken by a concurrent upload.
          await repository.lockBudget(tx);
          const rows = await repository.clientReservations(client, new Date(now.getTime() - windowMs), tx);
          if (rows.length >= settings.temporary_uploads_before_captcha && !solved) return { refused: captchaRequired() };
          const left = perClient - rows.reduce((sum, row) => sum + row.bytes, 0);
          const wanted = Math.min(declared ?? settings.max_file_bytes, settings.max_file_bytes);
          // Without a Content-Length what is left is reserved, and the stream is held to it.
          if (left <= 0 || (declared !== null && wanted > left)) {
            return { refused: uploadBudgetReached(retryAfter(rows, Math.max(1, wanted - left), windowMs, now.getTime())) };
          }
          const bytes = Math.min(wanted, left);
          if (
            (await repository.temporaryBytes(new Date(now.getTime() - PENDING_MS), tx)) + bytes >
            Number(settings.temporary_bytes_total)
          ) {
            return { refused: temporaryStorageFull() };
          }
          const id = await repository.reserve(client, bytes, now, tx);
          const overRetry = retryAfter(rows, bytes + 1 - left, windowMs, now.getTime());
          return { id, bytes, overRetry };
        },
      );
      if ('refused' in reserved) {
        const error = reserved.refused;
        if (error.statusCode === 429) await request.server.securityAudit.refused(request, { reason: 'temporary_upload_budget_reached' });
        if (error.code === 'captcha_required' && answer !== undefined) {
          await request.server.securityAudit.refused(request, { reason: 'captcha_answer_refused' });
        }
        throw error;
      }
      return {
        streamLimit: { maxBytes: reserved.bytes, refuse: () => uploadBudgetReached(reserved.overRetry) },
        async settle(size, tx) {
          await repository.settle(reserved.id, size, tx);
        },
        async release() {
          await repository.release(reserved.id).catch(() => undefined);
        },
        async afterStored() {
          await alert(request, settings).catch((error: unknown) => {
            request.log.warn({ err: error }, '[attachments] the temporary storage warning could not be checked');
          });
        },
      };
    },
  };
}

export type UploadBudget = ReturnType<typeof createUploadBudget>;
