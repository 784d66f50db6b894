import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { appError, badRequest } from '../../platform/errors';

/**
 * Reads one multipart upload (text fields, then one `file` part) straight to a temporary file
 * under workDir, never holding the whole file in memory (docs/rules/attachments.md#limits). The
 * size limit is enforced while the bytes arrive: one byte over stops the upload with 413 and
 * nothing stays behind. The caller removes `path` when done with it.
 */

export interface ReceivedUpload {
  path: string;
  size: number;
  /** What the device called the file: for display only, never a path. */
  sentName: string;
  fields: Record<string, string>;
}

export const MAX_TEXT_FIELDS = 5;
const MAX_FIELD_BYTES = 500;

export function tooLarge(maxBytes: number): Error {
  const megabytes = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return appError('payload_too_large', 413, `The file is too large. The largest file we accept is ${megabytes} MB.`);
}

/**
 * 413 document_space_full: the booking's document space (max_bytes_per_booking) has no room for
 * this file. Not "the largest file is 0 MB": the file may be fine, the booking is full.
 */
export function documentSpaceFull(leftBytes: number): Error {
  const left = Math.max(0, leftBytes);
  const megabytes = Math.floor((left / (1024 * 1024)) * 10) / 10;
  const message =
    megabytes === 0
      ? "This booking's document space is full: replace a document with a smaller file, or bring this one on the day."
      : `This file does not fit in this booking's document space (${megabytes} MB left): choose a smaller file, replace a document, or bring this one on the day.`;
  return appError('document_space_full', 413, message, { leftBytes: left });
}

/** A second limit on the bytes read, with its own refusal (a temporary upload's reserved budget, upload-budget.ts). */
export interface StreamLimit {
  maxBytes: number;
  refuse: () => Error;
}

function isMultipartLimit(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  return ['FST_REQ_FILE_TOO_LARGE', 'FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT'].includes(code);
}

/** Counts and hashes nothing: it only refuses the stream once it passes maxBytes (a second guard beside busboy's). */
function byteLimit(maxBytes: number, counter: { size: number }, budget: StreamLimit | undefined): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counter.size += chunk.length;
      if (counter.size > maxBytes) callback(tooLarge(maxBytes));
      else if (budget !== undefined && counter.size > budget.maxBytes) callback(budget.refuse());
      else callback(null, chunk);
    },
  });
}

export async function receiveUpload(
  request: FastifyRequest,
  workDir: string,
  maxBytes: number,
  budget?: StreamLimit,
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) {
    throw appError('unsupported_media_type', 415, 'Send the document as multipart/form-data with a "file" part.');
  }
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  const path = join(workDir, `.upload-${randomBytes(16).toString('base64url')}`);
  const fields: Record<string, string> = {};
  let received: ReceivedUpload | null = null;
  try {
    const parts = request.parts({
      limits: {
        fileSize: maxBytes,
        files: 1,
        fields: MAX_TEXT_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_TEXT_FIELDS + 1,
        headerPairs: 50,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (received !== null) throw badRequest('Send the text fields before the file.');
        if (typeof part.value !== 'string' || part.valueTruncated) throw badRequest(`The field "${part.fieldname}" is too long.`);
        fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file') throw badRequest('The document must be sent in a part named "file".');
      const counter = { size: 0 };
      const handle = await open(path, 'wx', 0o600);
      await handle.close();
      await pipeline(part.file, byteLimit(maxBytes, counter, budget), createWriteStream(path, { flags: 'w', mode: 0o600 }));
      if (part.file.truncated) throw tooLarge(maxBytes);
      received = { path, size: counter.size, sentName: part.filename, fields };
    }
  } catch (error) {
    await rm(path, { force: true });
    if (isMultipartLimit(error)) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : '';
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
      throw appError('payload_too_large', 413, 'Send one document and at most five text fields.');
    }
    throw error;
  }
  if (received === null) throw badRequest('Choose a file to upload.');
  return received;
}
