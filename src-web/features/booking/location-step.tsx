import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/use-stores';
import { CalendarView } from './calendar-view';
import { ClinicList } from './clinic-list';
import { ClinicMap } from './clinic-map';
import { PostcodeLocatorDialog, UnableToLocateDialog } from './location-dialogs';
import { Button } from '../../components/button';

/** Step 1: where (clinics offering every chosen exam, nearest first) and when (docs/rules/booking.md#free-times). */
export const LocationStep = observer(function LocationStep() {
  const { booking, config } = useStores();
  const { t } = useTranslation();
  const place = booking.placeAndTime;
  // No tiles configured: no map, the list alone (docs/rules/booking.md#the-clinic-list-and-map).
  const tiles = config.radiology.mapUiEnabled ? config.radiology.map : undefined;
  return (
    <div className="pp-location-step">
      <LocationBar />
      {place.clinicsState === 'error' && (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>{t('booking.location.loadError')}</p>
          <Button onClick={() => void place.loadClinics()}>{t('booking.actions.retry')}</Button>
        </div>
      )}
      {(place.clinicsState === 'loading' || place.location.locating) && <p role="status">{t('booking.location.finding')}</p>}
      {place.clinicsState === 'loaded' && place.clinics.length === 0 && <p className="pp-notice">{t('booking.location.noClinics')}</p>}
      {place.clinicsState === 'loaded' && place.clinics.length > 0 && (
        // The list first, in reading and tab order at every size (the map beside it on a desktop,
        // below it on a phone): the nearest clinic is a few Tab presses from the heading (docs/rules/booking.md#keyboard).
        <div className={tiles ? 'pp-clinics-with-map' : undefined}>
          <ClinicList />
          {tiles && <ClinicMap tiles={tiles} />}
        </div>
      )}
      {place.selectedClinic && !booking.examChoice.isBookingRequest && <CalendarView />}
      <div className="pp-actions">
        <Button variant="secondary" onClick={() => booking.goBack()}>
          {t('booking.actions.back')}
        </Button>
        <Button disabled={!place.canContinue} onClick={() => void booking.goToDetails()}>
          {t('action.continue')}
        </Button>
      </div>
      {place.location.unableToLocateOpen && <UnableToLocateDialog />}
      {place.location.postcodeLocatorOpen && <PostcodeLocatorDialog />}
    </div>
  );
});

/** Where the list is sorted from, and the two ways the patient may tell us (never asked unprompted). */
const LocationBar = observer(function LocationBar() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const place = booking.placeAndTime;
  const location = place.location;
  const position = location.position;
  const defaultLabel = place.settings?.defaultLocation.label;
  let where = defaultLabel ? t('booking.location.fromDefault', { label: defaultLabel }) : '';
  if (position && !place.usedDefaultLocation) {
    where =
      position.source === 'postcode' || position.source === 'kiosk'
        ? t('booking.location.fromPostcode')
        : position.source === 'query'
          ? t('booking.location.fromLink')
          : t('booking.location.fromBrowser');
  }
  return (
    <div className="pp-location-bar">
      <p aria-live="polite">{where}</p>
      {position && place.usedDefaultLocation && <p className="pp-muted">{t('booking.location.tooFar')}</p>}
      {location.browserFailed && !location.unableToLocateOpen && (
        <p className="pp-muted" role="status">
          {t('booking.location.browserFailed')}
        </p>
      )}
      <div className="pp-button-row">
        <Button variant="secondary" onClick={() => void location.useBrowserLocation()}>
          {t('booking.location.useMyLocation')}
        </Button>
        <Button variant="secondary" onClick={() => location.openPostcodeLocator()}>
          {t('booking.location.usePostcode')}
        </Button>
      </div>
    </div>
  );
});
