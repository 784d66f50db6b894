import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { StoredContentType, UploadContentType } from '@contract/api/attachments';
import { randomToken } from '../../../platform/ids';
import { claimedDimensions, detectContentType, isPolyglot } from './detect';

export interface ContentPolicy {
  /** The types this provider allows (attachment_settings.allowed_content_types). */
  allowed: readonly UploadContentType[];
  /** Images with more pixels are refused before they are decoded. */
  maxPixels: number;
  /** Longer side of a stored image; larger ones are scaled down. */
  maxDimension: number;
}

export type RefusalReason =
  | 'empty'
  | 'unknown_type'
  | 'not_allowed'
  | 'polyglot'
  | 'too_many_pixels'
  | 'unreadable_image'
  | 'pdf_script'
  | 'pdf_link'
  | 'pdf_embedded_file'
  | 'pdf_encrypted'
  | 'pdf_unreadable';

export type PreparedUpload =
  | { ok: true; contentType: StoredContentType; path: string; size: number; sha256: string; width: number | null; height: number | null }
  | { ok: false; reason: RefusalReason; message: string };

const TYPE_NAMES: Record<UploadContentType, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/heic': 'HEIC',
};

/** "PDF, JPEG, PNG": the allowed types as a patient reads them. */
export function allowedTypeNames(allowed: readonly UploadContentType[]): string {
  return allowed.map((type) => TYPE_NAMES[type]).join(', ');
}

function refusal(reason: RefusalReason, policy: ContentPolicy): PreparedUpload {
  const allowed = `Allowed file types: ${allowedTypeNames(policy.allowed)}.`;
  const messages: Record<RefusalReason, string> = {
    empty: 'This file is empty.',
    unknown_type: `We cannot accept this kind of file. ${allowed}`,
    not_allowed: `We cannot accept this kind of file. ${allowed}`,
    polyglot: 'This file contains something other than a document or photo, so we cannot accept it.',
    too_many_pixels: 'This image is too large to open. Please send a smaller photo or a PDF.',
    unreadable_image: 'This image is damaged or incomplete. Please take the photo again.',
    pdf_script: 'This PDF contains scripts or actions, so we cannot accept it. Please print it to a new PDF or send a photo.',
    pdf_link:
      'This PDF contains links or form actions that open web pages or other files, so we cannot accept it. Please send a scan or a photo of the document.',
    pdf_unreadable: 'This PDF is damaged or built in a way we cannot check. Please print it to a new PDF or send a photo.',
    pdf_embedded_file: 'This PDF contains attached files, so we cannot accept it. Please send the document itself.',
    pdf_encrypted: 'This PDF is password protected or encrypted. Please send an unprotected copy.',
  };
  return { ok: false, reason, message: messages[reason] };
}

async function readEnds(path: string): Promise<{ head: Buffer; tail: Buffer; size: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    const tailLength = Math.min(size, 1024);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    return { head, tail, size };
  } finally {
    await handle.close();
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Checks an upload by its bytes and makes the file that is stored (docs/rules/attachments.md#content):
 * PDFs are kept as sent when passive (the answer's path is then the input itself); images are
 * decoded and encoded again into a new file. On a refusal no output file is left behind; the
 * input file is the caller's.
 */
export async function prepareUpload(inputPath: string, workDir: string, policy: ContentPolicy): Promise<PreparedUpload> {
  const { head, tail, size } = await readEnds(inputPath);
  if (size === 0) return refusal('empty', policy);
  const detected = detectContentType(head, tail);
  if (detected === null) return refusal('unknown_type', policy);
  if (!policy.allowed.includes(detected)) return refusal('not_allowed', policy);
  // Images are read whole (at most the upload limit); a PDF's body is checked with its objects.
  const whole = detected === 'application/pdf' ? head : await readFile(inputPath);
  if (isPolyglot(detected, whole)) return refusal('polyglot', policy);

  const outputPath = join(workDir, `prepared-${randomToken(16)}`);
  let prepared: PreparedUpload | null = null;
  try {
    prepared = await prepareChecked(detected, inputPath, outputPath, head, size, policy);
    return prepared;
  } finally {
    // The output is kept only when it is the answer; the caller removes it after storing.
    if (prepared?.ok !== true) await rm(outputPath, { force: true });
  }
}

async function prepareChecked(
  detected: UploadContentType,
  inputPath: string,
  outputPath: string,
  head: Buffer,
  size: number,
  policy: ContentPolicy,
): Promise<PreparedUpload> {
  if (detected === 'application/pdf') {
    // The PDF reader (pdf-lib) loads with the first PDF, not when the server starts.
    const { checkPdf } = await import('./pdf');
    const checked = await checkPdf(inputPath);
    if (checked.active !== null) return refusal(checked.active, policy);
    // A passive PDF is stored as it came: the input itself is the answer (no copy).
    return { ok: true, contentType: 'application/pdf', path: inputPath, size, sha256: checked.sha256, width: null, height: null };
  }
  const claimed = claimedDimensions(detected, head);
  if (claimed !== null && claimed.width * claimed.height > policy.maxPixels) return refusal('too_many_pixels', policy);
  let image;
  try {
    // The image codecs (sharp's libvips, libheif) load with the first image, not when the server starts.
    const { reEncodeImage } = await import('./image');
    image = await reEncodeImage(inputPath, outputPath, detected, policy);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    return refusal(/pixel/i.test(message) ? 'too_many_pixels' : 'unreadable_image', policy);
  }
  return { ok: true, ...image, path: outputPath, sha256: await sha256Of(outputPath) };
}
