// Generates the demo provider's application images (resources/demo-provider/images/*.png).
//
// Why a script and not binary files from a design tool: the images are part of the repository's
// demo data, so anyone can regenerate or restyle them with Node alone (no image libraries, no
// network). Output is deterministic: running it twice writes byte-identical files.
//
// Run: node resources/demo-provider/tools/generate-images.mjs

import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT_DIR = fileURLToPath(new URL('../images/', import.meta.url));

// ---------------------------------------------------------------------------------------------
// PNG encoding (RFC 2083): signature, IHDR, one IDAT, IEND; each chunk carries a CRC-32.
// ---------------------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const typeBytes = Buffer.from(type, 'ascii');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([typeBytes, data])));
  return Buffer.concat([length, typeBytes, data, crc]);
}

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/**
 * Encodes 8-bit RGB or RGBA pixels. Each row gets the filter with the smallest sum of absolute
 * residuals (the heuristic libpng uses), which keeps gradients to a few kilobytes.
 */
function encodePng(width, height, channels, pixels) {
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  const previous = new Uint8Array(stride);
  const candidate = new Uint8Array(stride);
  for (let y = 0; y < height; y += 1) {
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    const prior = y === 0 ? previous : pixels.subarray((y - 1) * stride, y * stride);
    let bestFilter = 0;
    let bestScore = Infinity;
    let best = new Uint8Array(stride);
    for (let filter = 0; filter <= 4; filter += 1) {
      let score = 0;
      for (let i = 0; i < stride; i += 1) {
        const left = i >= channels ? row[i - channels] : 0;
        const up = prior[i];
        const upLeft = i >= channels ? prior[i - channels] : 0;
        let predictor = 0;
        if (filter === 1) predictor = left;
        else if (filter === 2) predictor = up;
        else if (filter === 3) predictor = (left + up) >> 1;
        else if (filter === 4) predictor = paeth(left, up, upLeft);
        const value = (row[i] - predictor) & 0xff;
        candidate[i] = value;
        score += value < 128 ? value : 256 - value;
      }
      if (score < bestScore) {
        bestScore = score;
        bestFilter = filter;
        best = candidate.slice();
      }
    }
    raw[y * (stride + 1)] = bestFilter;
    raw.set(best, y * (stride + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = channels === 4 ? 6 : 2; // colour type: RGBA or RGB
  header[10] = 0; // deflate
  header[11] = 0; // adaptive filtering
  header[12] = 0; // no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// A tiny vector renderer: a scene is a function from a point to a premultiplied-free RGBA colour,
// sampled 4x4 per pixel so edges are anti-aliased.
// ---------------------------------------------------------------------------------------------

const SAMPLES = 4;

function hex(colour) {
  const h = colour.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
}

function mix(a, b, t) {
  return a.map((v, i) => v + (b[i] - v) * t);
}

/** Colour at position t (0..1) along evenly spaced gradient stops. */
function gradient(stops, t) {
  const clamped = Math.min(1, Math.max(0, t));
  const scaled = clamped * (stops.length - 1);
  const index = Math.min(stops.length - 2, Math.floor(scaled));
  return mix(stops[index], stops[index + 1], scaled - index);
}

/** Source-over composition of `colour` with `alpha` onto `[r, g, b, a]`. */
function over(dst, colour, alpha) {
  const outA = alpha + dst[3] * (1 - alpha);
  if (outA === 0) return [0, 0, 0, 0];
  const rgb = [0, 1, 2].map((i) => (colour[i] * alpha + dst[i] * dst[3] * (1 - alpha)) / outA);
  return [...rgb, outA];
}

function render(width, height, channels, scene) {
  const pixels = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy += 1) {
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const [r, g, b, a] = scene(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          // Accumulate premultiplied so transparent samples do not darken edges.
          sum[0] += r * a;
          sum[1] += g * a;
          sum[2] += b * a;
          sum[3] += a;
        }
      }
      const n = SAMPLES * SAMPLES;
      const alpha = sum[3] / n;
      const offset = (y * width + x) * channels;
      for (let i = 0; i < 3; i += 1) {
        pixels[offset + i] = alpha === 0 ? 0 : Math.round(sum[i] / sum[3]);
      }
      if (channels === 4) pixels[offset + 3] = Math.round(alpha * 255);
    }
  }
  return encodePng(width, height, channels, pixels);
}

// Shapes ----------------------------------------------------------------------------------------

/** Height of a mountain range (piecewise linear ridge through `peaks` of [x, y]) at x. */
function ridge(peaks, x) {
  for (let i = 0; i < peaks.length - 1; i += 1) {
    const [x0, y0] = peaks[i];
    const [x1, y1] = peaks[i + 1];
    if (x >= x0 && x <= x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
  }
  return Infinity;
}

function wave(x, base, amplitude, wavelength, phase) {
  return base + amplitude * Math.sin((2 * Math.PI * x) / wavelength + phase);
}

function distanceToSegment(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function inRoundedRect(x, y, left, top, width, height, radius) {
  const cx = Math.min(Math.max(x, left + radius), left + width - radius);
  const cy = Math.min(Math.max(y, top + radius), top + height - radius);
  return Math.hypot(x - cx, y - cy) <= radius;
}

// A 5x7 bitmap font with just the letters the wordmark needs.
const GLYPHS = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  G: ['.###.', '#...#', '#....', '#.###', '#...#', '#...#', '.###.'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  N: ['#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  '&': ['.##..', '#..#.', '#.#..', '.#...', '#.#.#', '#..#.', '.##.#'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};

/** Returns a predicate telling whether a point lies on the text drawn at (left, top). */
function text(content, left, top, scale, letterSpacing = 1) {
  const advance = (5 + letterSpacing) * scale;
  const width = content.length * advance;
  return (x, y) => {
    if (x < left || y < top || x >= left + width || y >= top + 7 * scale) return false;
    const index = Math.floor((x - left) / advance);
    const column = Math.floor((x - left - index * advance) / scale);
    const row = Math.floor((y - top) / scale);
    const glyph = GLYPHS[content[index]];
    if (!glyph) throw new Error(`No glyph for ${content[index]}`);
    return column < 5 && glyph[row][column] === '#';
  };
}

// Brand colours (the same family as the theme in provider.json) -------------------------------

const NAVY = hex('#0c3b4f');
const TEAL = hex('#0b5f7a');
const SEA = hex('#1b7f8f');
const FOAM = hex('#9fd3e0');
const WHITE = hex('#ffffff');
const GREEN = hex('#1f7a5c');
const DUSK = hex('#3a5a8c');
const INK = hex('#0c1f2a');

/** The brand mark: two peaks over a wave inside a circle of radius r centred at (cx, cy). */
function brandMark(cx, cy, r, disc, peaksColour, waveColour) {
  return (x, y, dst) => {
    const dx = (x - cx) / r;
    const dy = (y - cy) / r;
    if (dx * dx + dy * dy > 1) return dst;
    let out = over(dst, disc, 1);
    const peak = ridge([[-1, 0.35], [-0.35, -0.45], [-0.05, -0.1], [0.3, -0.6], [1, 0.35]], dx);
    if (dy >= peak) out = over(out, peaksColour, 1);
    if (dy >= wave(dx, 0.3, 0.08, 0.7, 0.4)) out = over(out, waveColour, 1);
    return out;
  };
}

/** Banner scene: horizontal gradient, faint circles, a mountain range and two wave bands. */
function bannerScene(width, height, stops, { accent = null } = {}) {
  const unit = height / 200;
  const range = [
    [0, height * 0.78],
    [width * 0.12, height * 0.52],
    [width * 0.22, height * 0.68],
    [width * 0.38, height * 0.38],
    [width * 0.52, height * 0.64],
    [width * 0.66, height * 0.46],
    [width * 0.8, height * 0.7],
    [width * 0.92, height * 0.55],
    [width, height * 0.74],
  ];
  const circles = [
    [width * 0.08, height * 0.2, 70 * unit],
    [width * 0.72, height * 0.1, 110 * unit],
    [width * 0.9, height * 0.35, 50 * unit],
  ];
  return (x, y) => {
    let out = [...gradient(stops, x / width), 1];
    for (const [cx, cy, r] of circles) {
      if (Math.hypot(x - cx, y - cy) <= r) out = over(out, WHITE, 0.05);
    }
    if (y >= ridge(range, x)) out = over(out, WHITE, 0.1);
    if (y >= wave(x, height * 0.8, 8 * unit, 260 * unit, 0.5)) out = over(out, FOAM, 0.18);
    if (y >= wave(x, height * 0.88, 6 * unit, 180 * unit, 2.1)) out = over(out, WHITE, 0.14);
    if (accent) out = accent(x, y, out);
    return out;
  };
}

/** A thick tick, drawn faintly on the confirmation header. */
function tick(cx, cy, size) {
  const a = [cx - size, cy];
  const b = [cx - size * 0.35, cy + size * 0.6];
  const c = [cx + size, cy - size * 0.75];
  return (x, y, dst) => {
    const d = Math.min(distanceToSegment(x, y, a, b), distanceToSegment(x, y, b, c));
    return d <= size * 0.16 ? over(dst, WHITE, 0.22) : dst;
  };
}

// Images ----------------------------------------------------------------------------------------

const images = {
  'favicon.png': () => {
    const mark = brandMark(32, 34, 22, TEAL, WHITE, FOAM);
    return render(64, 64, 4, (x, y) => {
      if (!inRoundedRect(x, y, 0, 0, 64, 64, 12)) return [0, 0, 0, 0];
      return mark(x, y, [...TEAL, 1]);
    });
  },
  'logo.png': () => {
    // Light wordmark for the dark header bar.
    const mark = brandMark(44, 48, 36, WHITE, TEAL, FOAM);
    const title = text('HARBOUR & RANGE', 96, 22, 3);
    const subtitle = text('RADIOLOGY', 97, 56, 2, 2);
    return render(400, 96, 4, (x, y) => {
      let out = mark(x, y, [0, 0, 0, 0]);
      if (title(x, y)) out = over(out, WHITE, 1);
      if (subtitle(x, y)) out = over(out, FOAM, 1);
      return out;
    });
  },
  'branding-logo.png': () => {
    // Dark wordmark for the light footer.
    const mark = brandMark(24, 24, 20, TEAL, WHITE, FOAM);
    const title = text('HARBOUR & RANGE', 54, 9, 2);
    const subtitle = text('RADIOLOGY', 54, 29, 1, 2);
    return render(250, 48, 4, (x, y) => {
      let out = mark(x, y, [0, 0, 0, 0]);
      if (title(x, y)) out = over(out, NAVY, 1);
      if (subtitle(x, y)) out = over(out, TEAL, 1);
      return out;
    });
  },
  'header.png': () => render(1200, 200, 3, bannerScene(1200, 200, [NAVY, TEAL, SEA])),
  'header-tablet.png': () => render(768, 160, 3, bannerScene(768, 160, [NAVY, TEAL, SEA])),
  'confirmation-header.png': () =>
    render(1200, 200, 3, bannerScene(1200, 200, [TEAL, GREEN], { accent: tick(1060, 95, 55) })),
  'check-in-header.png': () => render(1200, 200, 3, bannerScene(1200, 200, [NAVY, DUSK, TEAL])),
  'image-viewer-banner.png': () => render(1200, 120, 3, bannerScene(1200, 120, [INK, NAVY])),
  'patient-portal-background.png': () => {
    // Very light so text on top of it keeps its contrast; the web app lays cards over it.
    const base = [hex('#f7fafb'), hex('#e9f2f5')];
    return render(1600, 900, 3, (x, y) => {
      let out = [...gradient(base, (x / 1600 + y / 900) / 2), 1];
      if (y >= wave(x, 700, 26, 900, 0.3)) out = over(out, FOAM, 0.14);
      if (y >= wave(x, 780, 18, 620, 1.9)) out = over(out, TEAL, 0.05);
      return out;
    });
  },
};

mkdirSync(OUT_DIR, { recursive: true });
for (const [name, draw] of Object.entries(images)) {
  const png = draw();
  writeFileSync(join(OUT_DIR, name), png);
  console.log(`${name}: ${png.length} bytes`);
}
