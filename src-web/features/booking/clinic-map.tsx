import { observer } from 'mobx-react-lite';
import type { CSSProperties } from 'react';
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
  const place = project([...clinics.map((entry) => entry.clinic), ...(position ? [position] : [])]);
  return (
    <div className="pp-map" role="group" aria-label={t('booking.map.label')}>
      {position && (
        <span className="pp-map-you" style={toStyle(place(position))} role="img" aria-label={t('booking.map.you')}>
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
            style={toStyle(place(entry.clinic))}
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
