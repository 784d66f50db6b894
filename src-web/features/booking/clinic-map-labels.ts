/**
 * Clinic names on the map that would collide (docs/rules/booking.md#the-clinic-list-and-map):
 * clustering merges markers whose pins are close, but a name beside a pin is much wider than the
 * pin, so at some zooms two names still overlap. Then the less important marker shrinks to its pin;
 * its name stays in the DOM, visually hidden, so the marker is still named for assistive technology,
 * and it shows again on hover (the title) and on keyboard focus (clinic-map.css).
 */

/** A box on the screen, in CSS pixels. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The class of a marker drawn as its pin alone. */
export const COMPACT_MARKER_CLASS = 'pp-map-marker-compact';

/** Room kept between two names, so their outlines do not touch (their shadows may). */
const GAP = 2;

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right + GAP && b.left < a.right + GAP && a.top < b.bottom + GAP && b.top < a.bottom + GAP;
}

/**
 * Which markers lose their name, taken in priority order (the chosen clinic, then the nearest): a
 * marker keeps its name when its full box meets nothing drawn before it (the obstacles, clusters,
 * come first); otherwise it is drawn as its compact box, the pin.
 */
export function namesToHide(markers: readonly { full: Box; compact: Box }[], obstacles: readonly Box[]): boolean[] {
  const drawn: Box[] = [...obstacles];
  return markers.map(({ full, compact }) => {
    const hide = drawn.some((box) => overlaps(box, full));
    drawn.push(hide ? compact : full);
    return hide;
  });
}

/**
 * Measures the markers in a Leaflet marker pane and hides the names that would collide. `priority`
 * orders them (lower first). Run after every zoom, move and icon change, once the markers are placed.
 */
export function declutterMarkerNames(pane: HTMLElement, priority: (icon: HTMLElement) => number): void {
  const markers = [...pane.querySelectorAll<HTMLElement>('.pp-map-marker')].sort((a, b) => priority(a) - priority(b));
  for (const marker of markers) marker.classList.remove(COMPACT_MARKER_CLASS);
  const boxes = markers.map((marker) => marker.getBoundingClientRect());
  const clusters = [...pane.querySelectorAll<HTMLElement>('.pp-map-cluster')].map((cluster) => cluster.getBoundingClientRect());
  // The pin alone is a circle at the box's left end, as high as the box.
  const hide = namesToHide(
    boxes.map((full) => ({ full, compact: { left: full.left, top: full.top, right: full.left + full.height, bottom: full.bottom } })),
    clusters,
  );
  markers.forEach((marker, index) => marker.classList.toggle(COMPACT_MARKER_CLASS, hide[index]));
}
