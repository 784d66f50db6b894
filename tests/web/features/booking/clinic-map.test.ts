import { describe, expect, it } from 'vitest';
import { spreadApart } from '../../../../src-web/features/booking/clinic-map';

const SIZE = 46;
const overlapping = (spots: { x: number; y: number }[]) =>
  spots.flatMap((a, i) =>
    spots
      .slice(i + 1)
      .filter((b) => Math.abs(a.x - b.x) < SIZE - 0.5 && Math.abs(a.y - b.y) < SIZE - 0.5)
      .map(() => i),
  );

/** Map markers never overlap, so each stays a full touch target (WCAG 2.5.8). */
describe('spreadApart', () => {
  it('should part markers that sit on top of each other and keep them inside the map', () => {
    const spots = spreadApart(
      [
        { x: 100, y: 100 },
        { x: 100, y: 100 },
        { x: 104, y: 98 },
        { x: 110, y: 112 },
        { x: 300, y: 300 },
      ],
      SIZE,
      335,
      335,
    );
    expect(overlapping(spots)).toEqual([]);
    for (const spot of spots) {
      expect(spot.x).toBeGreaterThanOrEqual(SIZE / 2);
      expect(spot.x).toBeLessThanOrEqual(335 - SIZE / 2);
      expect(spot.y).toBeGreaterThanOrEqual(SIZE / 2);
      expect(spot.y).toBeLessThanOrEqual(335 - SIZE / 2);
    }
  });

  it('should part a cluster pressed into a corner', () => {
    const cluster = Array.from({ length: 7 }, (_, index) => ({ x: 20 + index, y: 320 - index }));
    expect(overlapping(spreadApart(cluster, SIZE, 335, 335))).toEqual([]);
  });

  it('should leave markers that are already apart where they are', () => {
    const apart = [
      { x: 50, y: 50 },
      { x: 150, y: 50 },
      { x: 100, y: 250 },
    ];
    expect(spreadApart(apart, SIZE, 335, 335)).toEqual(apart);
  });
});
