import { observer } from 'mobx-react-lite';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClinicWithDistance } from '@contract/api/booking';
import { formatInstant } from './booking-calendar';
import { useStores } from '../../stores/use-stores';
import { Button } from '../../components/button';

/** How many clinics the list shows before "Show all": the nearest ones keep the times close on a phone. */
export const CLINICS_SHOWN_FIRST = 5;

/** The id of a clinic's card, so a map marker can bring it into view. */
export function clinicCardId(slug: string): string {
  return `pp-clinic-${slug}`;
}

/**
 * Brings a clinic's card into view without moving the page more than needed (a marker chosen
 * on the map): 'nearest' leaves the page still when the card is already visible.
 */
export function revealClinicCard(slug: string): void {
  const card = document.getElementById(clinicCardId(slug));
  if (!card) return;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  card.scrollIntoView({ block: 'nearest', behavior: reduced ? 'auto' : 'smooth' });
}

function NextAvailable({ entry }: { entry: ClinicWithDistance }) {
  const { t, i18n } = useTranslation();
  if (!entry.nextAvailable) return <>{t('booking.location.noNextAvailable')}</>;
  const when = formatInstant(entry.nextAvailable, i18n.language, entry.clinic.timeZone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });
  return <>{t('booking.location.nextAvailable', { when })}</>;
}

/**
 * The clinics, nearest first: compact cards (name, suburb and distance, next free time, one
 * button), the nearest few first so a phone reaches the times without a long scroll.
 */
export const ClinicList = observer(function ClinicList() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const headingId = useId();
  const [showAll, setShowAll] = useState(false);
  const { clinics, selectedClinicSlug } = booking.placeAndTime;
  const request = booking.examChoice.isBookingRequest;
  // A clinic chosen beyond the first few (on the map, or from the link) keeps the whole list open.
  const selectedIndex = clinics.findIndex((entry) => entry.clinic.slug === selectedClinicSlug);
  const expanded = showAll || selectedIndex >= CLINICS_SHOWN_FIRST || clinics.length <= CLINICS_SHOWN_FIRST + 1;
  const shown = expanded ? clinics : clinics.slice(0, CLINICS_SHOWN_FIRST);
  return (
    <section aria-labelledby={headingId} className="pp-clinic-choice">
      {request && booking.examChoice.questionnaireRequestMessage && (
        <p className="pp-notice" data-questionnaire-request>
          {booking.examChoice.questionnaireRequestMessage}
        </p>
      )}
      <h3 id={headingId}>{request ? t('booking.location.clinicsOptional') : t('booking.location.clinics')}</h3>
      <ol className="pp-clinic-list">
        {shown.map((entry) => {
          const { clinic } = entry;
          const selected = selectedClinicSlug === clinic.slug;
          return (
            <li
              key={clinic.slug}
              id={clinicCardId(clinic.slug)}
              className={selected ? 'pp-clinic-card pp-clinic-card-selected' : 'pp-clinic-card'}
            >
              <div className="pp-clinic-card-text">
                <h4>{clinic.name}</h4>
                <p className="pp-muted">
                  <span className="pp-clinic-street">{clinic.address.street}, </span>
                  {clinic.address.suburb} · {t('booking.location.distance', { km: entry.distanceKm.toFixed(1) })}
                </p>
                {!request && (
                  <p>
                    <NextAvailable entry={entry} />
                  </p>
                )}
              </div>
              <Button
                variant={selected ? 'primary' : 'secondary'}
                aria-pressed={selected}
                aria-label={
                  selected
                    ? t('booking.location.chosenClinic', { name: clinic.name })
                    : t('booking.location.chooseClinic', { name: clinic.name })
                }
                onClick={() => void booking.placeAndTime.selectClinic(clinic.slug)}
              >
                {selected ? t('booking.location.chosen') : t('booking.location.choose')}
              </Button>
            </li>
          );
        })}
      </ol>
      {!expanded && (
        <Button variant="secondary" className="pp-clinic-more" aria-expanded={false} onClick={() => setShowAll(true)}>
          {t('booking.location.showMore', { count: clinics.length })}
        </Button>
      )}
    </section>
  );
});
