import { describe, expect, it } from 'vitest';
import { DemoStudySchema } from '@contract/api/image-viewer';
import { DEMO_IMAGE_SIZE, demoStudy, encodeGreyscalePng, renderStudyImage } from '../../../src-server/dev-pacs/study-images';
import { readGreyscalePng } from './png-reader';

// The demo PACS's synthetic pictures (src-server/dev-pacs/study-images.ts): valid PNGs, the same
// bytes for the same study and image, different for another, a scan-like picture (not blank).

const UIDS = [
  '2.25.38584323566160511800902969745502384716',
  '2.25.1230573792340378604118791153863589603',
  '1.2.826.0.1.3680043.8.498.12345',
  '1.2.3',
];

function stats(pixels: Uint8Array): { mean: number; deviation: number; dark: number; bright: number } {
  let sum = 0;
  let squares = 0;
  let dark = 0;
  let bright = 0;
  for (const value of pixels) {
    sum += value;
    squares += value * value;
    if (value < 20) dark += 1;
    if (value > 150) bright += 1;
  }
  const mean = sum / pixels.length;
  return { mean, deviation: Math.sqrt(squares / pixels.length - mean * mean), dark: dark / pixels.length, bright: bright / pixels.length };
}

describe('demoStudy', () => {
  it.each(UIDS)('lists 4 to 6 titled %s images of the demo size, numbered from 0', (uid) => {
    const study = DemoStudySchema.parse(demoStudy(uid));
    expect(study.studyInstanceUid).toBe(uid);
    expect(study.description).not.toBe('');
    expect(study.images.length).toBeGreaterThanOrEqual(4);
    expect(study.images.length).toBeLessThanOrEqual(6);
    study.images.forEach((image, index) => {
      expect(image).toMatchObject({ index, width: DEMO_IMAGE_SIZE, height: DEMO_IMAGE_SIZE });
      expect(image.title).toMatch(/^(Sagittal|Coronal|Axial) .+ — slice \d+$/);
    });
    expect(new Set(study.images.map((image) => image.title)).size).toBe(study.images.length);
    expect(demoStudy(uid)).toEqual(study);
  });

  it('does not give every study the same images', () => {
    const shapes = UIDS.map((uid) => JSON.stringify(demoStudy(uid).images.map((image) => image.title)));
    expect(new Set(shapes).size).toBeGreaterThan(1);
  });
});

describe('renderStudyImage', () => {
  it.each(UIDS)('draws every image of %s as a valid 512×512 greyscale PNG with a scan-like picture', (uid) => {
    for (const { index } of demoStudy(uid).images) {
      const png = renderStudyImage(uid, index);
      if (png === null) throw new Error(`image ${index} missing`);
      const image = readGreyscalePng(png);
      expect(image).toMatchObject({ width: DEMO_IMAGE_SIZE, height: DEMO_IMAGE_SIZE });
      const { deviation, dark, bright } = stats(image.pixels);
      // A dark background around an anatomy of several grey levels, not noise or a flat field.
      expect(dark, `${uid} #${index}: background`).toBeGreaterThan(0.1);
      expect(dark + bright, `${uid} #${index}: not all background`).toBeLessThan(0.9);
      expect(deviation, `${uid} #${index}: contrast`).toBeGreaterThan(30);
    }
  });

  it('gives the same bytes for the same study and index, and different bytes for another index or study', () => {
    const [uid, other] = UIDS as [string, string];
    const first = renderStudyImage(uid, 0);
    expect(first).not.toBeNull();
    expect(renderStudyImage(uid, 0)?.equals(first ?? Buffer.alloc(0))).toBe(true);
    expect(renderStudyImage(uid, 1)?.equals(first ?? Buffer.alloc(0))).toBe(false);
    expect(renderStudyImage(other, 0)?.equals(first ?? Buffer.alloc(0))).toBe(false);
  });

  it.each([-1, 0.5, 6, 99, Number.NaN])('has no image %s', (index) => {
    expect(renderStudyImage(UIDS[0] ?? '', index)).toBeNull();
  });

  it('has no image past the end of the study', () => {
    const uid = UIDS[0] ?? '';
    expect(renderStudyImage(uid, demoStudy(uid).images.length)).toBeNull();
  });
});

describe('encodeGreyscalePng', () => {
  it('round-trips the pixels', () => {
    const pixels = Uint8Array.from({ length: 7 * 5 }, (_, index) => (index * 37) % 256);
    expect(readGreyscalePng(encodeGreyscalePng(pixels, 7, 5))).toEqual({ width: 7, height: 5, pixels });
  });
});
