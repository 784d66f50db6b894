import { rm } from 'node:fs/promises';
import type { BookingActor } from '../booking-access/public';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import {
  AttachmentUploadFieldsSchema,
  attachmentsBasePath,
  type Attachment,
  type AttachmentBase,
  type AttachmentsResponse,
  type AttachmentUploadFields,
  type RequestedDocument,
  type UploadContentType,
} from '@contract/api/attachments';
import { CONTROL_CHARACTER_MESSAGE } from '@contract/api/text';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, conflict, notFound, validationError } from '../../platform/errors';
import type { FileStorage } from '../../platform/storage';
import { localDate } from '../../platform/time-zone';
import type { VirusScanner } from '../../platform/virus-scan';
import { prepareUpload, type ContentPolicy } from './content';
import { diskFullRefusal, isNoSpaceLeft } from './disk-full';
import { displayFileName } from './file-names';
import { REFERRAL_WARNING_MESSAGES, referralWarning } from './referral-date';
import { createAttachmentsRepository, type AttachmentRow, type AttachmentSettingsRow, type Owner } from './repository';
import type { Reservation, UploadBudget } from './upload-budget';
import { documentSpaceFull, receiveUpload } from './upload-stream';

/**
 * Attachments (docs/rules/attachments.md): a booking's documents. The order of a write is what
 * keeps files and rows in step: the bytes are checked and re-encoded in a work folder, stored
 * (durably) under a new key, and only then is the row written; a failure after storing deletes
 * the stored file, and a crash in between leaves a file no row names, which the orphan sweeper
 * removes. A row therefore never names a missing file.
 */

export interface AttachmentsServiceDeps {
  db: Database;
  clock: Clock;
  storage: FileStorage;
  scanner: VirusScanner;
  /** Where uploads are received and re-encoded before they are stored (under DATA_DIR). */
  workDir: string;
  /** Image limits; defaults DEFAULT_CONTENT_LIMITS. */
  contentLimits?: Pick<ContentPolicy, 'maxPixels' | 'maxDimension'>;
  /** The budget of temporary-key uploads (upload-budget.ts); the server always has one, tests of the service alone may not. */
  budget?: UploadBudget;
}

export const DEFAULT_CONTENT_LIMITS = { maxPixels: 50_000_000, maxDimension: 4000 } as const;

/** Who does something, for the audit log: the patient, staff by reference, or the holder of a temporary key. */
export type Actor = BookingActor;

export function auditActor(actor: Actor): string {
  return actor.kind === 'staff' ? actor.ref : actor.kind;
}

export const BASE_OF_OWNER: Record<Owner['type'], AttachmentBase> = {
  APPOINTMENT: 'appointments',
  BOOKING_REQUEST: 'booking_requests',
  TEMPORARY: 'booking-keys',
};

const NOT_FOUND = 'We could not find this document.';
const BOOKING_NOT_FOUND = 'We could not find this booking.';

export function toAttachment(row: AttachmentRow, validityMonths: number): Attachment {
  const base = attachmentsBasePath(BASE_OF_OWNER[row.owner_type], row.owner_key);
  const warning = row.warning_overridden_by === null ? row.referral_warning : null;
  return {
    id: row.id,
    fileName: row.file_name,
    contentType: row.content_type,
    size: Number(row.size_bytes),
    documentTypeId: row.document_type_id,
    documentType:
      row.document_type_title === null ? null : { title: row.document_type_title, description: row.document_type_description ?? '' },
    documentTypeCode: row.document_type_code,
    bookingKey: row.owner_key,
    width: row.width,
    height: row.height,
    scanStatus: row.scan_status,
    referralDate: row.referral_date,
    referringDoctor: row.referring_doctor,
    referralWarning: warning,
    referralWarningMessage: warning === null ? null : REFERRAL_WARNING_MESSAGES[warning](validityMonths),
    uploadedAt: row.created_at,
    downloadUrl: `${base}/${row.id}/download`,
    viewUrl: `${base}/${row.id}/view`,
  };
}

function parseFields(fields: Record<string, string>): AttachmentUploadFields {
  const present = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
  const parsed = AttachmentUploadFieldsSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    in: `body/${issue.path.join('.') || 'fields'}`,
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  const control = issues.some((issue) => issue.message === CONTROL_CHARACTER_MESSAGE);
  throw appError('validation_failed', 400, control ? CONTROL_CHARACTER_MESSAGE : 'Some values in the request are not valid.', issues);
}

export function createAttachmentsService(deps: AttachmentsServiceDeps) {
  const { db, clock, storage, scanner } = deps;
  const repository = createAttachmentsRepository(db);
  const limits = deps.contentLimits ?? DEFAULT_CONTENT_LIMITS;

  /** 404 unless the booking (or live temporary key) exists. */
  async function assertOwner(owner: Owner): Promise<void> {
    if (owner.type === 'TEMPORARY') {
      if (!(await repository.liveTemporaryKey(owner.key, clock.now()))) {
        throw notFound('This booking session has expired. Please start the booking again.');
      }
      return;
    }
    if ((await repository.examSlugsOf(owner)) === null) throw notFound(BOOKING_NOT_FOUND);
  }

  async function requestedDocuments(owner: Owner, examSlugs: string[], rows: AttachmentRow[]): Promise<RequestedDocument[]> {
    const byExam = await repository.examDocumentTypes(examSlugs);
    const outcome = await repository.outcomeDocumentType(owner);
    const documents = byExam.map((type) => ({ ...type, examSlugs: type.exam_slugs }));
    if (outcome !== null && !documents.some((document) => document.id === outcome.id))
      documents.push({ ...outcome, exam_slugs: [], examSlugs: [] });
    return documents.map((type) => {
      // The newest upload of that type fills it (rows are newest first).
      const uploaded = rows.find((row) => row.document_type_id === type.id) ?? null;
      return {
        documentTypeId: type.id,
        documentTypeCode: type.code,
        documentType: { title: type.title, description: type.description },
        examSlugs: type.examSlugs,
        hasUploadedDocument: uploaded !== null,
        uploadedDocument: uploaded === null ? null : { id: uploaded.id, fileName: uploaded.file_name },
      };
    });
  }

  function limitsOf(settings: AttachmentSettingsRow): AttachmentsResponse['limits'] {
    return {
      allowedContentTypes: settings.allowed_content_types as UploadContentType[],
      maxFileBytes: settings.max_file_bytes,
      maxFiles: settings.max_files_per_booking,
      maxBytesPerBooking: Number(settings.max_bytes_per_booking),
      referralValidityMonths: settings.referral_validity_months,
    };
  }

  /** Receives, checks, re-encodes, scans and stores one upload; answers what the row needs. The caller deletes `storageKey` if its row is not written. */
  async function storeUpload(owner: Owner, request: FastifyRequest, settings: AttachmentSettingsRow, reservation: Reservation | null) {
    const received = await receiveUpload(request, deps.workDir, settings.max_file_bytes, reservation?.streamLimit);
    let preparedPath: string | null = null;
    try {
      const fields = parseFields(received.fields);
      const documentType = fields.documentTypeId === undefined ? null : await repository.documentType(fields.documentTypeId);
      if (fields.documentTypeId !== undefined && documentType === null)
        throw validationError('documentTypeId', 'This document type does not exist.');
      const prepared = await prepareUpload(received.path, deps.workDir, {
        allowed: settings.allowed_content_types as UploadContentType[],
        ...limits,
      });
      if (!prepared.ok) throw appError('unsupported_media_type', 415, prepared.message, { reason: prepared.reason });
      preparedPath = prepared.path;
      let scanStatus: 'CLEAN' | 'QUARANTINED' = 'CLEAN';
      if (scanner.enabled) {
        const verdict = await scanner.scanFile(prepared.path);
        if (verdict.status === 'infected') {
          throw appError('unsupported_media_type', 415, 'This file was refused because our virus scanner found a threat in it.', {
            reason: 'infected',
          });
        }
        // Scanner down: kept, but not served until a later scan says it is clean (fails closed).
        if (verdict.status === 'unavailable') scanStatus = 'QUARANTINED';
      }
      const isReferral = documentType?.code === 'REFERRAL';
      const referralDate = isReferral ? (fields.referralDate ?? null) : null;
      // The clinic's today, read only when there is a referral date to judge.
      const today = referralDate === null ? null : localDate(clock.now(), await repository.timeZoneOf(owner));
      const stored = await storage.putFile(prepared.path, prepared.contentType);
      return {
        storageKey: stored.key,
        documentTypeId: documentType?.id ?? null,
        fileName: displayFileName(received.sentName, prepared.contentType),
        contentType: prepared.contentType,
        size: prepared.size,
        sha256: prepared.sha256,
        width: prepared.width,
        height: prepared.height,
        scanStatus,
        referralDate,
        referringDoctor: isReferral ? (fields.referringDoctor ?? null) : null,
        referralWarning: today === null ? null : referralWarning(referralDate, today, settings.referral_validity_months),
      };
    } finally {
      await rm(received.path, { force: true });
      if (preparedPath !== null && preparedPath !== received.path) await rm(preparedPath, { force: true });
    }
  }

  /** Who stored which file where (no file name: the audit log holds no personal data). */
  async function auditStored(
    action: 'attachment.uploaded' | 'attachment.replaced',
    subjectId: string,
    owner: Owner,
    file: { contentType: string; size: number; scanStatus: string },
    actor: Actor,
    tx: Queryable,
  ): Promise<void> {
    await repository.audit(
      {
        actor: auditActor(actor),
        action,
        subjectId,
        details: { owner: owner.type, contentType: file.contentType, size: file.size, scan: file.scanStatus },
        now: clock.now(),
      },
      tx,
    );
  }

  /** Uploads under a temporary key by anyone but staff take from its budget before the file is read (docs/rules/attachments.md#limits). */
  async function reserve(
    owner: Owner,
    actor: Actor,
    request: FastifyRequest,
    settings: AttachmentSettingsRow,
  ): Promise<Reservation | null> {
    if (owner.type !== 'TEMPORARY' || actor.kind === 'staff' || deps.budget === undefined) return null;
    return deps.budget.reserve(request, settings);
  }

  /** Receives and stores the file; a refused or failed one gives its reserved bytes back. */
  async function storeReserved(owner: Owner, request: FastifyRequest, settings: AttachmentSettingsRow, reservation: Reservation | null) {
    try {
      return await storeUpload(owner, request, settings, reservation);
    } catch (error) {
      await reservation?.release();
      throw isNoSpaceLeft(error) ? diskFullRefusal(error, request.log) : error;
    }
  }

  async function discard(storageKey: string): Promise<void> {
    // Best effort: what is left is an orphan the sweeper removes.
    await storage.delete(storageKey).catch(() => undefined);
  }

  return {
    repository,

    async response(owner: Owner, changedExamSlugs?: string[]): Promise<AttachmentsResponse> {
      await assertOwner(owner);
      const settings = await repository.settings();
      const rows = await repository.list(owner);
      const examSlugs = changedExamSlugs ?? (owner.type === 'TEMPORARY' ? [] : ((await repository.examSlugsOf(owner)) ?? []));
      return {
        bookingKey: owner.key,
        documents: await requestedDocuments(owner, examSlugs, rows),
        attachments: rows.map((row) => toAttachment(row, settings.referral_validity_months)),
        limits: limitsOf(settings),
      };
    },

    async list(owner: Owner): Promise<Attachment[]> {
      await assertOwner(owner);
      const settings = await repository.settings();
      return (await repository.list(owner)).map((row) => toAttachment(row, settings.referral_validity_months));
    },

    async upload(owner: Owner, actor: Actor, request: FastifyRequest): Promise<Attachment> {
      await assertOwner(owner);
      const settings = await repository.settings();
      const maxBytes = Number(settings.max_bytes_per_booking);
      // Refused before a byte of the file is read when the booking is already full.
      const before = await repository.usage(owner);
      if (before.files >= settings.max_files_per_booking) {
        throw appError(
          'payload_too_large',
          413,
          `This booking already has ${settings.max_files_per_booking} documents, the most we accept.`,
        );
      }
      if (before.bytes >= maxBytes) throw documentSpaceFull(maxBytes - before.bytes);
      const reservation = await reserve(owner, actor, request, settings);
      const file = await storeReserved(owner, request, settings, reservation);
      try {
        const id = await db.transaction(async (tx) => {
          await repository.lockOwner(owner, tx);
          const usage = await repository.usage(owner, tx);
          if (usage.files >= settings.max_files_per_booking) {
            throw appError(
              'payload_too_large',
              413,
              `This booking already has ${settings.max_files_per_booking} documents, the most we accept.`,
            );
          }
          if (usage.bytes + file.size > maxBytes) throw documentSpaceFull(maxBytes - usage.bytes);
          const created = await repository.insert({ owner, ...file, now: clock.now() }, tx);
          await reservation?.settle(file.size, tx);
          await auditStored('attachment.uploaded', created, owner, file, actor, tx);
          return created;
        });
        await reservation?.afterStored();
        const row = await repository.one(owner, id);
        if (row === null) throw new Error('[attachments] the new row is gone');
        return toAttachment(row, settings.referral_validity_months);
      } catch (error) {
        await discard(file.storageKey);
        await reservation?.release();
        throw error;
      }
    },

    async replace(owner: Owner, id: string, actor: Actor, request: FastifyRequest): Promise<Attachment> {
      await assertOwner(owner);
      if ((await repository.one(owner, id)) === null) throw notFound(NOT_FOUND);
      const settings = await repository.settings();
      const reservation = await reserve(owner, actor, request, settings);
      const file = await storeReserved(owner, request, settings, reservation);
      let previous: string | null = null;
      try {
        previous = await db.transaction(async (tx) => {
          await repository.lockOwner(owner, tx);
          const current = await repository.one(owner, id, tx);
          if (current === null) throw notFound(NOT_FOUND);
          const usage = await repository.usage(owner, tx);
          const bytesAfter = usage.bytes - Number(current.size_bytes) + file.size;
          if (bytesAfter > Number(settings.max_bytes_per_booking))
            throw documentSpaceFull(Number(settings.max_bytes_per_booking) - usage.bytes + Number(current.size_bytes));
          const old = await repository.replaceFile(owner, id, file, clock.now(), tx);
          await reservation?.settle(file.size, tx);
          await auditStored('attachment.replaced', id, owner, file, actor, tx);
          return old;
        });
      } catch (error) {
        await discard(file.storageKey);
        await reservation?.release();
        throw error;
      }
      await reservation?.afterStored();
      if (previous !== null) await discard(previous);
      const row = await repository.one(owner, id);
      if (row === null) throw notFound(NOT_FOUND);
      return toAttachment(row, settings.referral_validity_months);
    },

    async remove(owner: Owner, id: string, actor: Actor): Promise<void> {
      const storageKey = await db.transaction(async (tx) => {
        const key = await repository.delete(owner, id, tx);
        if (key === null) throw notFound(NOT_FOUND);
        await repository.audit(
          { actor: auditActor(actor), action: 'attachment.deleted', subjectId: id, details: { owner: owner.type }, now: clock.now() },
          tx,
        );
        return key;
      });
      await discard(storageKey);
    },

    /** The file to send: its row and a stream of its bytes. Quarantined and infected files are never served. */
    async open(owner: Owner, id: string, actor: Actor, disposition: 'download' | 'view') {
      if (owner.type === 'TEMPORARY') await assertOwner(owner);
      const row = await repository.one(owner, id);
      if (row === null) throw notFound(NOT_FOUND);
      if (row.scan_status !== 'CLEAN') {
        throw conflict('This document is still being checked for viruses. Please try again in a few minutes.');
      }
      const file = await storage.open(row.storage_key);
      if (file === null) throw notFound(NOT_FOUND);
      await repository.audit({
        actor: auditActor(actor),
        action: disposition === 'download' ? 'attachment.downloaded' : 'attachment.viewed',
        subjectId: id,
        details: { owner: owner.type },
        now: clock.now(),
      });
      return { row, file };
    },

    async markImported(owner: Owner, actor: Actor): Promise<Attachment[]> {
      await assertOwner(owner);
      await db.transaction(async (tx) => {
        const ids = await repository.markImported(owner, clock.now(), tx);
        if (ids.length > 0) {
          await repository.audit(
            {
              actor: auditActor(actor),
              action: 'attachment.imported',
              subjectId: ids.join(','),
              details: { owner: owner.type },
              now: clock.now(),
            },
            tx,
          );
        }
      });
      const settings = await repository.settings();
      return (await repository.list(owner)).map((row) => toAttachment(row, settings.referral_validity_months));
    },

    /** Staff accept a referral the date check warned about (docs/rules/attachments.md#referral-date). */
    async overrideWarning(owner: Owner, id: string, actor: Extract<Actor, { kind: 'staff' }>): Promise<Attachment> {
      const settings = await repository.settings();
      await db.transaction(async (tx) => {
        if ((await repository.overrideWarning(owner, id, actor.username, tx)) === null) {
          throw notFound('We could not find a document with a referral warning here.');
        }
        await repository.audit(
          { actor: auditActor(actor), action: 'attachment.warning_overridden', subjectId: id, details: {}, now: clock.now() },
          tx,
        );
      });
      const row = await repository.one(owner, id);
      if (row === null) throw notFound(NOT_FOUND);
      return toAttachment(row, settings.referral_validity_months);
    },

    /** Scans quarantined files again (the scanner was down at upload); infected ones lose their bytes. */
    async rescanQuarantined(batch = 20): Promise<{ clean: number; infected: number; waiting: number }> {
      const counts = { clean: 0, infected: 0, waiting: 0 };
      if (!scanner.enabled) return counts;
      for (const item of await repository.quarantined(batch)) {
        const local = join(deps.workDir, `.rescan-${item.id}`);
        const verdict = await (async () => {
          const file = await storage.open(item.storage_key);
          if (file === null) return null;
          const { createWriteStream } = await import('node:fs');
          const { pipeline } = await import('node:stream/promises');
          await pipeline(file.stream, createWriteStream(local, { mode: 0o600 }));
          try {
            return await scanner.scanFile(local);
          } finally {
            await rm(local, { force: true });
          }
        })();
        if (verdict === null || verdict.status === 'unavailable') {
          counts.waiting += 1;
        } else if (verdict.status === 'clean') {
          await repository.setScanStatus(item.id, 'CLEAN');
          counts.clean += 1;
        } else {
          await repository.setScanStatus(item.id, 'INFECTED');
          await discard(item.storage_key);
          await repository.audit({ actor: 'system', action: 'attachment.infected', subjectId: item.id, details: {}, now: clock.now() });
          counts.infected += 1;
        }
      }
      return counts;
    },
  };
}

export type AttachmentsService = ReturnType<typeof createAttachmentsService>;
