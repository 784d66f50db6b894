import { observer } from 'mobx-react-lite';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClinicWithDistance } from '@contract/api/booking';
import { formatInstant } from './booking-calendar';
import { useStores } from '../../stores/use-stores';
import { CalendarView } from './calendar-view';
import { ModalDialog } from '../../components/modal-dialog';
import { ClinicMap } from './clinic-map';
import { Button } from '../../components/button';

/** Step 1: where (clinics offering every chosen exam, nearest first) and when (docs/rules/booking.md#free-times). */
export const LocationStep = observer(function LocationStep() {
  const { booking, config } = useStores();
  const { t } = useTranslation();
  return (
    <div className="pp-location-step">
      <LocationBar />
      {booking.placeAndTime.clinicsState === 'error' && (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>{t('booking.location.loadError')}</p>
          <Button onClick={() => void booking.placeAndTime.loadClinics()}>{t('booking.actions.retry')}</Button>
        </div>
      )}
      {(booking.placeAndTime.clinicsState === 'loading' || booking.placeAndTime.locating) && (
        <p role="status">{t('booking.location.finding')}</p>
      )}
      {booking.placeAndTime.clinicsState === 'loaded' && booking.placeAndTime.clinics.length === 0 && (
        <p className="pp-notice">{t('booking.location.noClinics')}</p>
      )}
      {booking.placeAndTime.clinicsState === 'loaded' && booking.placeAndTime.clinics.length > 0 && (
        <div className={config.radiology.mapUiEnabled ? 'pp-clinics-with-map' : undefined}>
          <ClinicList />
          {config.radiology.mapUiEnabled && <ClinicMap />}
        </div>
      )}
      {booking.placeAndTime.selectedClinic && !booking.examChoice.isBookingRequest && <CalendarView />}
      <div className="pp-actions">
        <Button variant="secondary" onClick={() => booking.goBack()}>
          {t('booking.actions.back')}
        </Button>
        <Button disabled={!booking.placeAndTime.canContinue} onClick={() => void booking.goToDetails()}>
          {t('action.continue')}
        </Button>
      </div>
      {booking.placeAndTime.unableToLocateOpen && <UnableToLocateDialog />}
      {booking.placeAndTime.postcodeLocatorOpen && <PostcodeLocatorDialog />}
    </div>
  );
});

const LocationBar = observer(function LocationBar() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const position = booking.placeAndTime.position;
  const defaultLabel = booking.placeAndTime.settings?.defaultLocation.label;
  let where = defaultLabel ? t('booking.location.fromDefault', { label: defaultLabel }) : '';
  if (position && !booking.placeAndTime.usedDefaultLocation) {
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
      {position && booking.placeAndTime.usedDefaultLocation && <p className="pp-muted">{t('booking.location.tooFar')}</p>}
      <div className="pp-button-row">
        <Button variant="secondary" onClick={() => void booking.placeAndTime.useBrowserLocation()}>
          {t('booking.location.useMyLocation')}
        </Button>
        <Button variant="secondary" onClick={() => booking.placeAndTime.openPostcodeLocator()}>
          {t('booking.location.usePostcode')}
        </Button>
      </div>
    </div>
  );
});

function NextAvailable({ entry }: { entry: ClinicWithDistance }) {
  const { t, i18n } = useTranslation();
  if (!entry.nextAvailable) return <span>{t('booking.location.noNextAvailable')}</span>;
  const when = formatInstant(entry.nextAvailable, i18n.language, entry.clinic.timeZone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });
  return <span>{t('booking.location.nextAvailable', { when })}</span>;
}

const ClinicList = observer(function ClinicList() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="pp-clinic-choice">
      {booking.examChoice.isBookingRequest && booking.examChoice.questionnaireRequestMessage && (
        <p className="pp-notice" data-questionnaire-request>
          {booking.examChoice.questionnaireRequestMessage}
        </p>
      )}
      <h3 id={headingId}>{booking.examChoice.isBookingRequest ? t('booking.location.clinicsOptional') : t('booking.location.clinics')}</h3>
      <ol className="pp-clinic-list">
        {booking.placeAndTime.clinics.map((entry, index) => {
          const { clinic } = entry;
          const selected = booking.placeAndTime.selectedClinicSlug === clinic.slug;
          return (
            <li key={clinic.slug} className={selected ? 'pp-clinic-card pp-clinic-card-selected' : 'pp-clinic-card'}>
              <h4>
                <span className="pp-map-index" aria-hidden="true">
                  {index + 1}
                </span>{' '}
                {clinic.name}
              </h4>
              <p className="pp-muted">
                {clinic.address.street}, {clinic.address.suburb} {clinic.address.state} {clinic.address.postcode}
              </p>
              <p>
                {t('booking.location.distance', { km: entry.distanceKm.toFixed(1) })}
                {!booking.examChoice.isBookingRequest && (
                  <>
                    {' · '}
                    <NextAvailable entry={entry} />
                  </>
                )}
              </p>
              <Button
                variant={selected ? 'primary' : 'secondary'}
                aria-pressed={selected}
                onClick={() => void booking.placeAndTime.selectClinic(clinic.slug)}
              >
                {selected
                  ? t('booking.location.chosenClinic', { name: clinic.name })
                  : t('booking.location.chooseClinic', { name: clinic.name })}
              </Button>
            </li>
          );
        })}
      </ol>
    </section>
  );
});

const UnableToLocateDialog = observer(function UnableToLocateDialog() {
  const { booking } = useStores();
  const { t } = useTranslation();
  return (
    <ModalDialog
      title={t('booking.location.unableTitle')}
      onDismiss={() => booking.placeAndTime.closeUnableToLocate()}
      actions={
        <>
          <Button onClick={() => booking.placeAndTime.openPostcodeLocator()}>{t('booking.location.usePostcode')}</Button>
          <Button variant="secondary" onClick={() => booking.placeAndTime.closeUnableToLocate()}>
            {t('booking.location.showAll')}
          </Button>
        </>
      }
    >
      <p>{t('booking.location.unableText')}</p>
    </ModalDialog>
  );
});

const PostcodeLocatorDialog = observer(function PostcodeLocatorDialog() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const [postcode, setPostcode] = useState('');
  const inputId = useId();
  const errorId = useId();
  const problem = booking.placeAndTime.postcodeProblem;
  const formId = useId();
  return (
    <ModalDialog
      title={t('booking.location.postcodeTitle')}
      onDismiss={() => booking.placeAndTime.closePostcodeLocator()}
      actions={
        <>
          <Button type="submit" form={formId} disabled={booking.placeAndTime.postcodeState === 'loading'}>
            {t('booking.location.find')}
          </Button>
          <Button variant="secondary" onClick={() => booking.placeAndTime.closePostcodeLocator()}>
            {t('action.cancel')}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void booking.placeAndTime.locatePostcode(postcode);
        }}
      >
        <div className="pp-field">
          <label htmlFor={inputId}>{t('booking.location.postcode')}</label>
          <input
            id={inputId}
            className="pp-input pp-input-short"
            inputMode="numeric"
            autoComplete="postal-code"
            value={postcode}
            aria-invalid={problem !== null}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => setPostcode(event.target.value)}
          />
          {problem && (
            <p id={errorId} className="pp-field-error">
              {problem === 'unknown' ? t('booking.location.postcodeUnknown') : t('booking.location.postcodeInvalid')}
            </p>
          )}
        </div>
      </form>
    </ModalDialog>
  );
});
