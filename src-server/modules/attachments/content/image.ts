import { readFile } from 'node:fs/promises';
import decodeHeic from 'heic-decode';
import sharp, { type Sharp } from 'sharp';
import type { StoredContentType, UploadContentType } from '@contract/api/attachments';

export interface ReEncoded {
  contentType: StoredContentType;
  size: number;
  width: number;
  height: number;
}

/**
 * Decodes and encodes an image again (docs/rules/attachments.md#content): only pixels survive, so
 * EXIF (GPS position, camera), XMP, comments and anything hidden in the file are gone. The
 * orientation is applied first and the size capped at maxDimension on the longer side. HEIC
 * (iPhone) photos become JPEG, which every browser shows.
 */
export async function reEncodeImage(
  inputPath: string,
  outputPath: string,
  contentType: Exclude<UploadContentType, 'application/pdf'>,
  limits: { maxPixels: number; maxDimension: number },
): Promise<ReEncoded> {
  let pipeline: Sharp;
  if (contentType === 'image/heic') {
    // sharp's prebuilt libvips reads HEIF containers but not HEVC pixels; libheif (WebAssembly) does.
    const decoded = await decodeHeic({ buffer: await readFile(inputPath) });
    if (decoded.width * decoded.height > limits.maxPixels) throw new Error('too many pixels');
    pipeline = sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
      limitInputPixels: limits.maxPixels,
    });
  } else {
    pipeline = sharp(inputPath, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate();
  }
  pipeline = pipeline.resize({
    width: limits.maxDimension,
    height: limits.maxDimension,
    fit: 'inside',
    withoutEnlargement: true,
  });
  const output: StoredContentType = contentType === 'image/png' ? 'image/png' : 'image/jpeg';
  const encoded =
    output === 'image/png'
      ? pipeline.png({ compressionLevel: 6 })
      : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true });
  const info = await encoded.toFile(outputPath);
  return { contentType: output, size: info.size, width: info.width, height: info.height };
}
