import { observer } from 'mobx-react-lite';
import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';

interface Point {
  latitude: number;
  longitude: number;
}

/** Where each point sits in a box, in percent, keeping a margin so markers stay inside. */
export function project(points: Point[]): (point: Point) => { left: number; top: number } {
  const lats = points.map((point) => point.latitude);
  const lngs = points.map((point) => point.longitude);
  const [minLat, maxLat] = [Math.min(...lats), Math.max(...lats)];
  const [minLng, maxLng] = [Math.min(...lngs), Math.max(...lngs)];
  const spanLat = maxLat - minLat || 1;
  const spanLng = maxLng - minLng || 1;
  return (point) => ({
    left: 8 + ((point.longitude - minLng) / spanLng) * 84,
    top: 8 + ((maxLat - point.latitude) / spanLat) * 84,
  });
}

interface Spot {
  x: number;
  y: number;
}

/**
 * Moves square boxes of `size` pixels apart until no two overlap, each kept inside the
 * width x height area. A pair that overlaps moves apart along the axis that needs the smaller
 * step, half each, so nearby clinics stay near each other and keep their rough direction.
 * Markers that do not overlap are full-size touch targets (WCAG 2.5.8, at least 24 by 24 px).
 */
export function spreadApart(spots: Spot[], size: number, width: number, height: number): Spot[] {
  const placed = spots.map((spot) => ({ ...spot }));
  const clamp = (value: number, max: number) => Math.min(Math.max(value, size / 2), Math.max(max - size / 2, size / 2));
  for (let round = 0; round < 200; round += 1) {
    let moved = false;
    for (let i = 0; i < placed.length; i += 1) {
      for (let j = i + 1; j < placed.length; j += 1) {
        const a = placed[i];
        const b = placed[j];
        if (!a || !b) continue;
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        const overlapX = size - Math.abs(dx);
        const overlapY = size - Math.abs(dy);
        if (overlapX <= 0.01 || overlapY <= 0.01) continue;
        moved = true;
        // Equal positions part along x (or y when x has no room), the earlier marker to the left or top.
        if (overlapX <= overlapY && width >= 2 * size) {
          const step = (overlapX / 2) * (dx < 0 ? -1 : 1);
          a.x = clamp(a.x - step, width);
          b.x = clamp(b.x + step, width);
        } else {
          const step = (overlapY / 2) * (dy < 0 ? -1 : 1);
          a.y = clamp(a.y - step, height);
          b.y = clamp(b.y + step, height);
        }
      }
    }
    if (!moved) break;
  }
  return placed;
}

/** The element's content size in pixels, followed as it changes (0 until measured). */
function useSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
}

/** Marker box in CSS pixels (booking.css .pp-map-marker) plus 2 px so neighbours never touch. */
const MARKER_BOX = 46;

/**
 * The clinics on a simple map (mapUiEnabled): markers placed by latitude and longitude relative
 * to each other and to the patient's position. No external maps script is loaded; each marker
 * is a button that chooses its clinic, numbered as in the list.
 */
export const ClinicMap = observer(function ClinicMap() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const clinics = booking.placeAndTime.clinics;
  const position = booking.placeAndTime.usedDefaultLocation ? null : booking.placeAndTime.position;
  const [mapRef, { width, height }] = useSize<HTMLDivElement>();
  const points = [...clinics.map((entry) => entry.clinic), ...(position ? [position] : [])];
  const place = project(points);
  // Nearby clinics would stack their markers: spread them (and the patient's dot) apart in pixels.
  const spots =
    width > 0 && height > 0
      ? spreadApart(
          points.map(place).map((point) => ({ x: (point.left / 100) * width, y: (point.top / 100) * height })),
          MARKER_BOX,
          width,
          height,
        ).map((spot) => ({ left: (spot.x / width) * 100, top: (spot.y / height) * 100 }))
      : points.map(place);
  const youSpot = spots[clinics.length];
  return (
    <div className="pp-map" role="group" aria-label={t('booking.map.label')} ref={mapRef}>
      {position && youSpot && (
        <span className="pp-map-you" style={toStyle(youSpot)} role="img" aria-label={t('booking.map.you')}>
          ●
        </span>
      )}
      {clinics.map((entry, index) => {
        const selected = booking.placeAndTime.selectedClinicSlug === entry.clinic.slug;
        return (
          <button
            key={entry.clinic.slug}
            type="button"
            className={selected ? 'pp-map-marker pp-map-marker-selected' : 'pp-map-marker'}
            style={toStyle(spots[index] ?? place(entry.clinic))}
            aria-pressed={selected}
            aria-label={t('booking.map.marker', { name: entry.clinic.name, km: entry.distanceKm.toFixed(1) })}
            onClick={() => void booking.placeAndTime.selectClinic(entry.clinic.slug)}
          >
            {index + 1}
          </button>
        );
      })}
    </div>
  );
});

function toStyle(point: { left: number; top: number }): CSSProperties {
  return { left: `${point.left}%`, top: `${point.top}%` };
}
