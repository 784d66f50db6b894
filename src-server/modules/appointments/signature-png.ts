import type { OutputInfo } from 'sharp';
import { SIGNATURE_MAX_BYTES, SIGNATURE_MAX_HEIGHT, SIGNATURE_MAX_WIDTH } from '@contract/api/appointments';
import { validationError } from '../../platform/errors';

/**
 * The drawn consent signature, checked by its content (docs/rules/appointments.md#consent-forms):
 * a PNG by its signature bytes, its IHDR size within bounds, at most SIGNATURE_MAX_BYTES, that
 * decodes, with some ink on it. What is stored is sharp's re-encoding of the decoded pixels, so
 * text chunks, trailing bytes and anything else hidden in the upload are dropped.
 */

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Smaller than a pen stroke across the pad: the canvas is hundreds of pixels wide. */
export const SIGNATURE_MIN_WIDTH = 50;
export const SIGNATURE_MIN_HEIGHT = 20;
/** Pixels that count as ink: visible (alpha) and darker than near-white; a blank or white canvas has none. */
export const SIGNATURE_MIN_INK_PIXELS = 20;

const FIELD = 'signaturePng';
const problem = (message: string) => validationError(FIELD, message);

/** The IHDR's width and height (bytes 16–23, right after the magic and the chunk's length and type). */
function ihdrSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function inkPixels(rgba: Buffer): number {
  let ink = 0;
  for (let at = 0; at + 3 < rgba.length; at += 4) {
    const alpha = rgba[at + 3] ?? 0;
    const darkest = Math.min(rgba[at] ?? 255, rgba[at + 1] ?? 255, rgba[at + 2] ?? 255);
    if (alpha >= 32 && darkest < 224) ink += 1;
  }
  return ink;
}

/**
 * The PNG to store for the signature the request sent (base64 or a data: URL; the contract checked
 * its characters and length). Throws 400 validation_failed naming signaturePng on a bad one.
 */
export async function signaturePng(sent: string): Promise<Buffer> {
  const bytes = Buffer.from(sent.replace(/^data:image\/png;base64,/, ''), 'base64');
  if (bytes.length > SIGNATURE_MAX_BYTES) throw problem('The drawn signature is too large (at most 200 KB).');
  if (bytes.length < PNG_MAGIC.length || !bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) {
    throw problem('The drawn signature must be a PNG image.');
  }
  const size = ihdrSize(bytes);
  if (size === null) throw problem('The drawn signature is not a readable PNG image.');
  if (size.width > SIGNATURE_MAX_WIDTH || size.height > SIGNATURE_MAX_HEIGHT) {
    throw problem(`The drawn signature is too big: at most ${SIGNATURE_MAX_WIDTH} × ${SIGNATURE_MAX_HEIGHT} pixels.`);
  }
  if (size.width < SIGNATURE_MIN_WIDTH || size.height < SIGNATURE_MIN_HEIGHT) {
    throw problem(`The drawn signature is too small: at least ${SIGNATURE_MIN_WIDTH} × ${SIGNATURE_MIN_HEIGHT} pixels.`);
  }
  // sharp (libvips) loads with the first signature, not when the server starts.
  const { default: sharp } = await import('sharp');
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { failOn: 'error', limitInputPixels: SIGNATURE_MAX_WIDTH * SIGNATURE_MAX_HEIGHT })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw problem('The drawn signature is not a readable PNG image.');
  }
  const { data, info } = decoded;
  if (info.width !== size.width || info.height !== size.height || info.channels !== 4)
    throw problem('The drawn signature is not a readable PNG image.');
  if (inkPixels(data) < SIGNATURE_MIN_INK_PIXELS) throw problem('The drawn signature is empty. Please sign with your finger.');
  const stored = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
  // Re-encoding rarely grows a picture; the stored one keeps the same limit all the same.
  if (stored.length > SIGNATURE_MAX_BYTES) throw problem('The drawn signature is too large (at most 200 KB).');
  return stored;
}
