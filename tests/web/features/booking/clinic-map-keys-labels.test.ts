import { afterEach, describe, expect, it } from 'vitest';
import { MarkerRoving, rovingTarget } from '../../../../src-web/features/booking/clinic-map-keyboard';
import { COMPACT_MARKER_CLASS, declutterMarkerNames, namesToHide, type Box } from '../../../../src-web/features/booking/clinic-map-labels';

const box = (left: number, top: number, width: number, height = 32): Box => ({ left, top, right: left + width, bottom: top + height });
const pin = (full: Box): Box => ({ ...full, right: full.left + (full.bottom - full.top) });
/** Clinic names at these places, each with its pin-only compact form. */
const named = (boxes: Box[]) => boxes.map((full) => ({ full, compact: pin(full) }));

describe('clinic names on the map', () => {
  it('keeps every name that meets no other, and shrinks the later of two that would overlap', () => {
    const near = box(0, 0, 120);
    const overlapping = box(100, 10, 120);
    const apart = box(0, 100, 120);
    expect(namesToHide(named([near, overlapping, apart]), [])).toEqual([false, true, false]);
  });

  it('lets a name placed after a shrunk one use the room the shrunk one left', () => {
    const first = box(0, 0, 120);
    const second = box(100, 0, 120); // meets the first: its pin alone, 100..132
    const third = box(140, 0, 60); // would meet the second's name, not its pin
    expect(namesToHide(named([first, second, third]), [])).toEqual([false, true, false]);
  });

  it('never draws a name over a cluster', () => {
    const full = box(0, 0, 120);
    expect(namesToHide(named([full]), [box(110, 0, 44, 44)])).toEqual([true]);
  });

  it('measures a marker pane: the chosen clinic first, a shrunk marker keeps its name in the DOM', () => {
    const pane = document.createElement('div');
    const marker = (name: string, rect: Box) => {
      const element = document.createElement('div');
      element.className = 'leaflet-marker-icon pp-map-marker';
      element.innerHTML = `<span class="pp-map-pin"></span><span class="pp-map-name">${name}</span>`;
      element.getBoundingClientRect = () =>
        ({ ...rect, x: rect.left, y: rect.top, width: rect.right - rect.left, height: rect.bottom - rect.top }) as DOMRect;
      pane.append(element);
      return element;
    };
    const nearest = marker('Parramatta', box(0, 0, 120));
    const chosen = marker('Liverpool', box(60, 0, 120));
    declutterMarkerNames(pane, (icon) => (icon === chosen ? -1 : icon === nearest ? 0 : 1));
    expect(chosen.classList.contains(COMPACT_MARKER_CLASS)).toBe(false);
    expect(nearest.classList.contains(COMPACT_MARKER_CLASS)).toBe(true);
    expect(nearest.textContent).toBe('Parramatta');
  });
});

describe('the markers as one Tab stop', () => {
  afterEach(() => document.body.replaceChildren());

  it('moves with the arrow keys, Home and End, round the ends', () => {
    expect(rovingTarget('ArrowRight', 0, 3)).toBe(1);
    expect(rovingTarget('ArrowDown', 2, 3)).toBe(0);
    expect(rovingTarget('ArrowLeft', 0, 3)).toBe(2);
    expect(rovingTarget('ArrowUp', 1, 3)).toBe(0);
    expect(rovingTarget('Home', 2, 3)).toBe(0);
    expect(rovingTarget('End', 0, 3)).toBe(2);
    expect(rovingTarget('Tab', 0, 3)).toBeNull();
    expect(rovingTarget('ArrowRight', 0, 0)).toBeNull();
  });

  it('leaves one marker focusable, in the list order, and follows the focus and the arrows', () => {
    const pane = document.createElement('div');
    document.body.append(pane);
    const ranks = new Map<HTMLElement, number>();
    const icon = (rank: number) => {
      const element = document.createElement('div');
      element.className = 'leaflet-marker-icon';
      element.tabIndex = 0; // as Leaflet makes every marker
      ranks.set(element, rank);
      pane.append(element);
      return element;
    };
    const [far, nearest, middle] = [icon(2), icon(0), icon(1)];
    let chosen: HTMLElement | null = null;
    const roving = new MarkerRoving(
      pane,
      (element) => ranks.get(element) ?? 99,
      () => chosen,
    );
    roving.update();
    expect([far, nearest, middle].map((element) => element.tabIndex)).toEqual([-1, 0, -1]);

    nearest.focus();
    nearest.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    expect(document.activeElement).toBe(middle);
    expect([far, nearest, middle].map((element) => element.tabIndex)).toEqual([-1, -1, 0]);
    middle.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    expect(document.activeElement).toBe(far);

    // A clinic chosen on its card takes the stop, once the focus is elsewhere.
    far.blur();
    chosen = nearest;
    roving.reset();
    expect([far, nearest, middle].map((element) => element.tabIndex)).toEqual([-1, 0, -1]);
    roving.dispose();
  });
});
