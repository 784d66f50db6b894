/** The viewer's zoom constants (docs/rules/attachments.md#the-web-app). */
export const ZOOM = {
  /** Largest zoom, unless the image's own pixels allow more (maxScaleFor). */
  maxScale: 3,
  wheelStep: 0.2,
  transitionMs: 200,
  doubleTapScale: 2,
  /** Two taps this close together are a double tap. */
  doubleTapMs: 300,
  /** A press shorter than this is a tap (longer is a pan or a long press). */
  tapMs: 200,
  imageMaxHeightPx: 600,
} as const;

/** A tap that moves further than this is a pan, not a tap. */
const TAP_SLOP_PX = 10;

/** Maximum scale: 3, or the scale at which the image shows its original pixels when that is more. */
export function maxScaleFor(naturalWidth: number, shownWidth: number): number {
  if (naturalWidth <= 0 || shownWidth <= 0) return ZOOM.maxScale;
  return Math.max(ZOOM.maxScale, naturalWidth / shownWidth);
}

interface Point {
  x: number;
  y: number;
}

/**
 * Tells taps and double taps apart from pointer downs and ups (mouse, pen and touch alike): a tap
 * is a press under tapMs that barely moves; a second tap within doubleTapMs of the first, near
 * it, is a double tap.
 */
export function createTapDetector(now: () => number = () => performance.now()) {
  let down: (Point & { at: number }) | null = null;
  let lastTap: (Point & { at: number }) | null = null;
  const near = (a: Point, b: Point, slop: number) => Math.hypot(a.x - b.x, a.y - b.y) <= slop;
  return {
    down(point: Point): void {
      down = { ...point, at: now() };
    },
    /** Answers true when this release completes a double tap. */
    up(point: Point): boolean {
      const start = down;
      down = null;
      const at = now();
      if (start === null || at - start.at >= ZOOM.tapMs || !near(start, point, TAP_SLOP_PX)) {
        lastTap = null;
        return false;
      }
      if (lastTap !== null && at - lastTap.at <= ZOOM.doubleTapMs && near(lastTap, point, TAP_SLOP_PX * 3)) {
        lastTap = null;
        return true;
      }
      lastTap = { ...point, at };
      return false;
    },
    /** A second finger: a pinch, never a tap. */
    cancel(): void {
      down = null;
      lastTap = null;
    },
  };
}
