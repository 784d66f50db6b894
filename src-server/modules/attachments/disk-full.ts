import type { FastifyBaseLogger } from 'fastify';
import { appError, type AppError } from '../../platform/errors';

/** Node's codes for a full disk (ENOSPC) and a used-up quota (EDQUOT). */
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);

export function isNoSpaceLeft(error: unknown): boolean {
  return typeof error === 'object' && error !== null && NO_SPACE_CODES.has(String((error as { code?: unknown }).code));
}

/**
 * A full disk while an upload is received or stored: 507 with words a patient can act on, instead
 * of a 500. Nothing is kept: the work files are removed and no row is written (service.ts), and
 * folder storage writes under a temporary name that is removed on failure (platform/storage/folder.ts).
 * The operator is told once per refusal in the log, by error code only.
 */
export function diskFullRefusal(error: unknown, log: FastifyBaseLogger): AppError {
  log.error({ code: (error as { code?: unknown }).code }, '[attachments] an upload was refused: no space left where documents are stored');
  return appError(
    'insufficient_storage',
    507,
    'Your document could not be saved because our storage is full. Nothing was saved. Please try again later, or bring the document to your appointment.',
    // The web tells it apart from the booking-time budget's 507 (upload-budget.ts) by this reason.
    { reason: 'disk_full' },
  );
}
