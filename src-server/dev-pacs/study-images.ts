import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { DemoStudy } from '@contract/api/image-viewer';

/**
 * The demo PACS's pictures: synthetic greyscale "MR slices" (knee-like, whatever the exam) drawn
 * from ellipses, a bias field and noise, all seeded from the StudyInstanceUID and the image index,
 * so the same study always shows the same 4 to 6 images and no real patient's picture is ever in
 * the demo. PNG written by hand (8-bit greyscale, node:zlib): no image library for a stand-in.
 */

export const DEMO_IMAGE_SIZE = 512;

/** The series a demo study is made of; a study takes 4 to 6 of them, in this order. */
const SERIES = [
  { title: 'Sagittal T1', plane: 'sagittal', weighting: 'T1' },
  { title: 'Sagittal PD fat sat', plane: 'sagittal', weighting: 'PDFS' },
  { title: 'Coronal PD fat sat', plane: 'coronal', weighting: 'PDFS' },
  { title: 'Axial T2', plane: 'axial', weighting: 'T2' },
  { title: 'Coronal T1', plane: 'coronal', weighting: 'T1' },
  { title: 'Axial PD fat sat', plane: 'axial', weighting: 'PDFS' },
] as const;
type Series = (typeof SERIES)[number];
type Weighting = Series['weighting'];

/** Tissue brightness (0 to 1) per weighting: fat is bright on T1, dark with fat saturation; fluid bright on T2/PD. */
const TISSUE: Record<Weighting, { fat: number; muscle: number; cortex: number; marrow: number; fluid: number; cartilage: number }> = {
  T1: { fat: 0.86, muscle: 0.38, cortex: 0.06, marrow: 0.78, fluid: 0.2, cartilage: 0.45 },
  PDFS: { fat: 0.22, muscle: 0.34, cortex: 0.05, marrow: 0.18, fluid: 0.92, cartilage: 0.62 },
  T2: { fat: 0.62, muscle: 0.26, cortex: 0.04, marrow: 0.5, fluid: 0.95, cartilage: 0.4 },
};

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** mulberry32: small, fast and good enough for picture noise; seeded, so deterministic. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface StudyPlan {
  count: number;
  /** The first slice number of each series (the title's "slice N"). */
  slices: number[];
  /** A per-study shift of the anatomy, so two studies do not look the same. */
  offsetX: number;
  offsetY: number;
  tilt: number;
}

function planFor(studyInstanceUid: string): StudyPlan {
  const bytes = digest(`demo-pacs/study/${studyInstanceUid}`);
  const at = (index: number): number => bytes[index] ?? 0;
  return {
    count: 4 + (at(0) % 3),
    slices: SERIES.map((_, index) => 6 + (at(1 + index) % 18)),
    offsetX: (at(8) % 41) - 20,
    offsetY: (at(9) % 41) - 20,
    tilt: ((at(10) % 21) - 10) / 100,
  };
}

/** The study as the viewer lists it. */
export function demoStudy(studyInstanceUid: string): DemoStudy {
  const plan = planFor(studyInstanceUid);
  return {
    studyInstanceUid,
    description: 'Synthetic MRI demo images (not a real patient)',
    images: SERIES.slice(0, plan.count).map((series, index) => ({
      index,
      title: `${series.title} — slice ${plan.slices[index] ?? 1}`,
      width: DEMO_IMAGE_SIZE,
      height: DEMO_IMAGE_SIZE,
    })),
  };
}

interface Ellipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  value: number;
}

/** The anatomy of one slice, painted in order (later shapes cover earlier ones). */
function shapesFor(series: Series, plan: StudyPlan, sliceShift: number): Ellipse[] {
  const tissue = TISSUE[series.weighting];
  const c = DEMO_IMAGE_SIZE / 2;
  const x = c + plan.offsetX + sliceShift * 3;
  const y = c + plan.offsetY;
  if (series.plane === 'axial') {
    return [
      { cx: x, cy: y, rx: 205, ry: 185, value: tissue.fat },
      { cx: x, cy: y + 5, rx: 180, ry: 160, value: tissue.muscle },
      { cx: x - 70, cy: y + 40, rx: 60, ry: 45, value: tissue.muscle * 1.15 },
      { cx: x + 75, cy: y + 45, rx: 55, ry: 42, value: tissue.muscle * 0.9 },
      { cx: x + 5, cy: y - 15, rx: 78 - Math.abs(sliceShift) * 2, ry: 70, value: tissue.cortex },
      { cx: x + 5, cy: y - 15, rx: 64 - Math.abs(sliceShift) * 2, ry: 57, value: tissue.marrow },
      { cx: x + 10, cy: y - 95, rx: 40, ry: 14, value: tissue.fluid },
      { cx: x - 20, cy: y + 110, rx: 9, ry: 9, value: 0.9 },
      { cx: x + 30, cy: y + 115, rx: 7, ry: 7, value: 0.85 },
    ];
  }
  const long = series.plane === 'sagittal';
  return [
    { cx: x, cy: y, rx: long ? 175 : 190, ry: 250, value: tissue.fat },
    { cx: x, cy: y, rx: long ? 150 : 168, ry: 250, value: tissue.muscle },
    // Femur above the joint, tibia below: dark cortex around bright or dark marrow.
    { cx: x, cy: y - 130, rx: long ? 70 : 95, ry: 150, value: tissue.cortex },
    { cx: x, cy: y - 130, rx: long ? 58 : 82, ry: 140, value: tissue.marrow },
    { cx: x, cy: y + 140, rx: long ? 66 : 90, ry: 125, value: tissue.cortex },
    { cx: x, cy: y + 140, rx: long ? 54 : 78, ry: 115, value: tissue.marrow },
    // Cartilage and the joint space between them, with a little fluid.
    { cx: x, cy: y + 8, rx: long ? 62 : 88, ry: 9, value: tissue.cartilage },
    { cx: x + (long ? 40 : -50), cy: y + 6, rx: 22, ry: 6, value: tissue.fluid },
    // Sagittal: the patella in front; coronal: the menisci at the sides.
    ...(long
      ? [
          { cx: x + 135, cy: y - 40, rx: 26, ry: 55, value: tissue.cortex },
          { cx: x + 135, cy: y - 40, rx: 18, ry: 46, value: tissue.marrow },
          { cx: x + 110, cy: y - 95, rx: 18, ry: 40, value: tissue.fluid },
        ]
      : [
          { cx: x - 95, cy: y + 8, rx: 18, ry: 10, value: tissue.cortex },
          { cx: x + 95, cy: y + 8, rx: 18, ry: 10, value: tissue.cortex },
        ]),
  ];
}

/**
 * Paints one shape over `canvas` (size × size): 1 inside, 0 outside, a soft edge of about two
 * pixels between. Only the square around the ellipse is visited.
 */
function paint(canvas: Float32Array, size: number, shape: Ellipse, cos: number, sin: number): void {
  const reach = Math.max(shape.rx, shape.ry);
  const fromX = Math.max(0, Math.floor(shape.cx - reach));
  const toX = Math.min(size - 1, Math.ceil(shape.cx + reach));
  const fromY = Math.max(0, Math.floor(shape.cy - reach));
  const toY = Math.min(size - 1, Math.ceil(shape.cy + reach));
  const edge = 2 / Math.min(shape.rx, shape.ry);
  const inner = (1 - edge) * (1 - edge);
  for (let py = fromY; py <= toY; py += 1) {
    const dy = py - shape.cy;
    for (let px = fromX; px <= toX; px += 1) {
      const dx = px - shape.cx;
      const u = (dx * cos + dy * sin) / shape.rx;
      const v = (-dx * sin + dy * cos) / shape.ry;
      const squared = u * u + v * v;
      if (squared >= 1) continue;
      const at = py * size + px;
      if (squared <= inner) {
        canvas[at] = shape.value;
      } else {
        const amount = (1 - Math.sqrt(squared)) / edge;
        canvas[at] = (canvas[at] ?? 0) * (1 - amount) + shape.value * amount;
      }
    }
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit greyscale PNG of `pixels` (row-major, width × height bytes). */
export function encodeGreyscalePng(pixels: Uint8Array, width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: greyscale
  header[10] = 0; // compression: deflate
  header[11] = 0; // filter method 0
  header[12] = 0; // no interlace
  // Each row starts with its filter type: Up (2) suits smooth pictures and keeps the file small.
  const raw = Buffer.alloc((width + 1) * height);
  for (let row = 0; row < height; row += 1) {
    const out = row * (width + 1);
    raw[out] = 2;
    for (let column = 0; column < width; column += 1) {
      const here = pixels[row * width + column] ?? 0;
      const above = row === 0 ? 0 : (pixels[(row - 1) * width + column] ?? 0);
      raw[out + 1 + column] = (here - above) & 0xff;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 6 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Image `index` of the study as a PNG, or null when the study has no such image. The same uid
 * and index always give the same bytes.
 */
export function renderStudyImage(studyInstanceUid: string, index: number): Buffer | null {
  const plan = planFor(studyInstanceUid);
  const series = SERIES[index];
  if (!Number.isInteger(index) || index < 0 || index >= plan.count || series === undefined) return null;
  const seed = digest(`demo-pacs/image/${studyInstanceUid}/${index}`).readUInt32BE(0);
  const next = random(seed);
  const sliceShift = ((plan.slices[index] ?? 12) % 7) - 3;
  const shapes = shapesFor(series, plan, sliceShift);
  const tilt = plan.tilt + (series.plane === 'coronal' ? -0.05 : 0);
  const cos = Math.cos(tilt);
  const sin = Math.sin(tilt);
  const size = DEMO_IMAGE_SIZE;
  const canvas = new Float32Array(size * size).fill(0.02);
  for (const shape of shapes) paint(canvas, size, shape, cos, sin);
  const pixels = new Uint8Array(size * size);
  // A coil's bias field: brighter near one side, falling off towards the edges.
  const biasX = (next() - 0.5) * 0.5;
  const biasY = (next() - 0.5) * 0.5;
  for (let py = 0; py < size; py += 1) {
    const ny = py / size - 0.5;
    for (let px = 0; px < size; px += 1) {
      const nx = px / size - 0.5;
      const value = canvas[py * size + px] ?? 0;
      const bias = 1 + biasX * nx + biasY * ny - 0.35 * (nx * nx + ny * ny);
      // Triangular noise (two uniforms from one draw), stronger where the signal is.
      const draw = next();
      const noise = (draw + ((draw * 65536) % 1) - 1) * (0.03 + 0.06 * value);
      pixels[py * size + px] = Math.round(Math.min(1, Math.max(0, value * bias + noise)) * 255);
    }
  }
  return encodeGreyscalePng(pixels, size, size);
}
