import { writeFileSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import sharp from 'sharp';
import { CHROMIUM_ARGS, findChromium } from '../../../scripts/chromium.mjs';

/**
 * A camera for the kiosk journeys: Chromium's fake capture device plays a Y4M file made here, so
 * the kiosk's real scanner (getUserMedia and jsQR) reads a real QR code off "the camera".
 */

const WIDTH = 640;
const HEIGHT = 480;

/** Grey pixels (0 black, 255 white), one byte each, WIDTH x HEIGHT. */
async function greyFrame(image: Buffer): Promise<Buffer> {
  // The picture held up to the camera: fitted inside the frame on a white background.
  return sharp(image, { density: 300 })
    .resize(WIDTH - 120, HEIGHT - 80, { fit: 'contain', background: '#ffffff' })
    .extend({ top: 40, bottom: 40, left: 60, right: 60, background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer();
}

/**
 * Writes a Y4M video (4:2:0, a few frames; Chromium plays it in a loop) of `image` (PNG, JPEG or
 * SVG bytes) held in front of the camera. Luma comes from the grey picture; chroma is neutral.
 */
export async function writeCameraVideo(image: Buffer, path: string): Promise<void> {
  const luma = await greyFrame(image);
  if (luma.length !== WIDTH * HEIGHT) throw new Error(`the camera frame is ${luma.length} bytes, not ${WIDTH * HEIGHT}`);
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, ...Array<Buffer>(5).fill(frame)]));
}

/** A Chromium whose camera shows the video at `videoPath` (no permission prompt: the context grants it). */
export async function browserWithCamera(videoPath: string): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium() ?? undefined,
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${videoPath}`],
  });
}

/** The bytes of an image the page shows as a data address (the QR codes are SVG data addresses). */
export function bytesOfDataUrl(src: string): Buffer {
  const match = /^data:([^,]*?)(;base64)?,(.*)$/s.exec(src);
  if (!match) throw new Error(`not a data address: ${src.slice(0, 40)}`);
  return match[2] ? Buffer.from(match[3] ?? '', 'base64') : Buffer.from(decodeURIComponent(match[3] ?? ''));
}
