import { observer } from 'mobx-react-lite';
import { Component, lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapTiles } from '@contract/api/config';
import { useStores } from '../../stores/use-stores';
import { Button } from '../../components/button';
import { revealClinicCard } from './clinic-list';
import './clinic-map.css';

// Leaflet and its CSS are a chunk of their own, loaded when a map is drawn (never on the booking home).
const LeafletClinicMap = lazy(() => import('./clinic-map-leaflet'));

/** A map that failed to load (offline, a blocked chunk) says so; the list still works. */
class MapErrorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * The clinics on the provider's map (docs/rules/booking.md#the-clinic-list-and-map): markers named and
 * linked to the cards both ways. It can be hidden (on a phone it sits above the list).
 */
export const ClinicMap = observer(function ClinicMap({ tiles }: { tiles: MapTiles }) {
  const { booking } = useStores();
  const { t } = useTranslation();
  const place = booking.placeAndTime;
  const [shown, setShown] = useState(true);
  const [resetCount, setResetCount] = useState(0);
  const regionId = useId();
  const position = place.usedDefaultLocation ? null : place.position;
  const choose = (slug: string) => {
    void place.selectClinic(slug);
    // After the list has drawn the card (it may have been beyond the first few).
    requestAnimationFrame(() => revealClinicCard(slug));
  };
  return (
    <div className="pp-map">
      <div className="pp-map-tools">
        <Button variant="secondary" aria-expanded={shown} aria-controls={regionId} onClick={() => setShown(!shown)}>
          {shown ? t('booking.map.hide') : t('booking.map.show')}
        </Button>
        {shown && (
          <Button variant="secondary" onClick={() => setResetCount(resetCount + 1)}>
            {t('booking.map.reset')}
          </Button>
        )}
      </div>
      <div id={regionId} role="group" aria-label={t('booking.map.label')} className="pp-map-frame" hidden={!shown}>
        {shown && (
          <MapErrorBoundary fallback={<p className="pp-map-message">{t('booking.map.unavailable')}</p>}>
            <Suspense fallback={<p className="pp-map-message">{t('booking.map.loading')}</p>}>
              <LeafletClinicMap
                tiles={tiles}
                clinics={place.clinics}
                selectedSlug={place.selectedClinicSlug}
                position={position}
                resetCount={resetCount}
                texts={{
                  zoomIn: t('booking.map.zoomIn'),
                  zoomOut: t('booking.map.zoomOut'),
                  cluster: (count) => t('booking.map.cluster', { count }),
                  markers: t('booking.map.markers'),
                }}
                onChoose={choose}
              />
            </Suspense>
          </MapErrorBoundary>
        )}
      </div>
    </div>
  );
});
