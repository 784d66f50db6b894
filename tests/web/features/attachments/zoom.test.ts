import { describe, expect, it } from 'vitest';
import { looksAllowed } from '../../../../src-web/features/attachments/attachments-store';
import { createTapDetector, maxScaleFor, ZOOM } from '../../../../src-web/components/zoom';

describe('the viewer zoom rules (spec point 9)', () => {
  function detector() {
    let time = 0;
    const taps = createTapDetector(() => time);
    const tap = (at: number, held = 50, x = 100, y = 100) => {
      time = at;
      taps.down({ x, y });
      time = at + held;
      return taps.up({ x, y });
    };
    return { taps, tap };
  }

  it('counts two quick taps within 300 ms as a double tap', () => {
    const { tap } = detector();
    expect(tap(0)).toBe(false);
    expect(tap(ZOOM.doubleTapMs - 60)).toBe(true);
  });

  it('does not count taps too far apart, a press held 200 ms or more, or a pinch', () => {
    const slow = detector();
    expect(slow.tap(0)).toBe(false);
    expect(slow.tap(ZOOM.doubleTapMs + 100)).toBe(false);

    const held = detector();
    expect(held.tap(0, ZOOM.tapMs)).toBe(false);
    expect(held.tap(250, 50)).toBe(false);

    const pinch = detector();
    expect(pinch.tap(0)).toBe(false);
    pinch.taps.cancel();
    expect(pinch.tap(150)).toBe(false);
  });

  it('zooms to 3, or to the original pixels when they allow more', () => {
    expect(maxScaleFor(800, 400)).toBe(3);
    expect(maxScaleFor(4000, 400)).toBe(10);
    expect(maxScaleFor(0, 0)).toBe(3);
  });
});

describe('looksAllowed', () => {
  const allowed = ['application/pdf', 'image/jpeg', 'image/heic'] as const;
  it.each([
    [{ name: 'a.pdf', type: 'application/pdf' }, true],
    [{ name: 'IMG_1.HEIC', type: '' }, true],
    [{ name: 'IMG_1.heif', type: 'image/heif' }, true],
    [{ name: 'scan.png', type: 'image/png' }, false],
    [{ name: 'notes.txt', type: 'text/plain' }, false],
    [{ name: 'archive', type: 'application/octet-stream' }, false],
  ])('%j: %s', (file, expected) => {
    expect(looksAllowed(file, allowed)).toBe(expected);
  });
});
