import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { formatInstant } from '../booking/public';
import type { AppointmentWaitlist } from './appointment-waitlist';

/** "Want an earlier time?": join the waiting list, or see that the booking waits and leave it. */
export const WaitlistSection = observer(function WaitlistSection({
  waitlist,
  bookingKey,
  timeZone,
}: {
  waitlist: AppointmentWaitlist;
  bookingKey: string;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const { status } = waitlist;
  if (status === null || !waitlist.shown) return null;
  const since = status.since === null ? '' : formatInstant(status.since, i18n.language, timeZone, { day: 'numeric', month: 'long' });
  return (
    <section className="pp-appt-waitlist" aria-labelledby="pp-appt-waitlist-heading">
      <h2 id="pp-appt-waitlist-heading">{t('appointment.waitlist.title')}</h2>
      {status.waiting ? (
        <p role="status" data-testid="waitlist-status">
          {t('appointment.waitlist.waiting', { since })}
        </p>
      ) : (
        <p>{t('appointment.waitlist.intro')}</p>
      )}
      {status.clinicName !== null && status.regionName !== null && (
        <fieldset className="pp-appt-waitlist-where">
          <legend>{t('appointment.waitlist.where')}</legend>
          {(['same', 'region'] as const).map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name="pp-waitlist-clinics"
                value={choice}
                checked={waitlist.clinics === choice}
                disabled={waitlist.saving}
                onChange={() => void waitlist.choose(bookingKey, choice)}
              />{' '}
              {choice === 'same'
                ? t('appointment.waitlist.sameClinic', { clinic: status.clinicName })
                : t('appointment.waitlist.anyInRegion', { region: status.regionName })}
            </label>
          ))}
        </fieldset>
      )}
      {waitlist.failed && (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('appointment.waitlist.failed')}
        </p>
      )}
      <div className="pp-actions">
        <Button
          variant="secondary"
          onClick={() => void waitlist.change(bookingKey, !status.waiting)}
          disabled={waitlist.saving}
          aria-busy={waitlist.saving}
        >
          {waitlist.saving
            ? t('appointment.waitlist.saving')
            : status.waiting
              ? t('appointment.waitlist.leave')
              : t('appointment.waitlist.join')}
        </Button>
      </div>
    </section>
  );
});
