import { observer } from 'mobx-react-lite';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { dateTimeFormat } from '../../platform/dates';
import { CheckInChecklistView } from '../check-in/public';
import { useStores } from '../../stores/use-stores';
import type { KioskCheckInStore, OtpProblem } from './kiosk-check-in-store';
import { goKioskHome } from './go-kiosk-home';
import { KioskCard, KioskForm } from './kiosk-card';

/** Success and complete go back to the kiosk home by themselves after this long. */
export const KIOSK_DONE_SECONDS = 30;

function OtpProblemText({ problem }: { problem: OtpProblem }) {
  const { t } = useTranslation();
  switch (problem) {
    case 'format':
      return <>{t('kiosk.otp.format')}</>;
    case 'wrong':
      return <>{t('kiosk.otp.wrong')}</>;
    case 'expired':
      return <>{t('kiosk.otp.expired')}</>;
    case 'slowDown':
      return <>{t('kiosk.otp.slowDown')}</>;
    case 'failed':
      return <>{t('kiosk.otp.failed')}</>;
  }
}

/** The one-time code the patient received (6 digits), with resend after the countdown. */
export const OtpStep = observer(function OtpStep({ store }: { store: KioskCheckInStore }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <KioskCard heading={t('kiosk.otp.heading')} intro={t('kiosk.otp.sent', { destination: store.destination })}>
      <KioskForm onSubmit={() => store.verifyCode()}>
        <label htmlFor={id}>{t('kiosk.otp.label')}</label>
        <input
          id={id}
          className="pp-kiosk-input pp-kiosk-code"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="one-time-code"
          maxLength={6}
          value={store.code}
          aria-invalid={store.otpProblem !== null}
          aria-describedby={store.otpProblem ? `${id}-error` : undefined}
          onChange={(event) => store.setCode(event.target.value)}
        />
        {store.otpProblem && (
          <p id={`${id}-error`} role="alert" className="pp-kiosk-error">
            <OtpProblemText problem={store.otpProblem} />
          </p>
        )}
        <Button type="submit" block disabled={store.verifying}>
          {store.verifying ? t('kiosk.otp.checking') : t('kiosk.otp.submit')}
        </Button>
      </KioskForm>
      <Button variant="secondary" block disabled={store.resendSeconds > 0 || store.verifying} onClick={() => void store.resend()}>
        {t('kiosk.otp.resend')}
      </Button>
      {store.resendSeconds > 0 && (
        <p className="pp-kiosk-hint" aria-live="polite">
          {t('kiosk.otp.resendIn', { count: store.resendSeconds })}
        </p>
      )}
    </KioskCard>
  );
});

/** Today's appointments of the booking (exam, time, clinic) and the big Check in button. */
export const ConfirmStep = observer(function ConfirmStep({ store }: { store: KioskCheckInStore }) {
  const { t, i18n } = useTranslation();
  const summary = store.summary;
  if (store.loadingAppointments || !summary)
    return (
      <p role="status" className="pp-kiosk-status">
        <span className="pp-spinner" aria-hidden="true" /> {t('kiosk.confirm.loading')}
      </p>
    );
  const time = dateTimeFormat(i18n.language, { hour: 'numeric', minute: '2-digit', timeZone: summary.clinic.timeZone });
  return (
    <KioskCard heading={t('kiosk.confirm.heading')} intro={t('kiosk.confirm.intro')}>
      <ul className="pp-kiosk-appointments">
        {store.appointmentsToday.map((item) => (
          <li key={item.slug}>
            <dl>
              <dt>{t('kiosk.confirm.exam')}</dt>
              <dd>{item.examName}</dd>
              <dt>{t('kiosk.confirm.time')}</dt>
              <dd>{time.format(new Date(item.startsAt))}</dd>
              <dt>{t('kiosk.confirm.clinic')}</dt>
              <dd>{summary.clinic.name}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <Button block className="pp-kiosk-big" disabled={store.checkingIn} onClick={() => void store.confirm()}>
        {store.checkingIn ? t('kiosk.confirm.submitting') : t('kiosk.confirm.submit')}
      </Button>
    </KioskCard>
  );
});

/** The hand-off is on its way: a spinner and no buttons (check-in processing). */
export function ProcessingStep() {
  const { t } = useTranslation();
  return (
    <section className="pp-kiosk-card" aria-busy="true" aria-live="polite">
      <h2>{t('kiosk.processing.heading')}</h2>
      <p className="pp-kiosk-status">
        <span className="pp-spinner" aria-hidden="true" /> {t('kiosk.processing.text')}
      </p>
    </section>
  );
}

/** Counts down and then goes home by itself (the next patient gets a fresh kiosk). */
function useReturnHome(seconds: number): number {
  const root = useStores();
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        clearInterval(timer);
        goKioskHome(() => root.api.patientAccess.logout());
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [root, seconds]);
  return left;
}

/**
 * Success (checked in at once) or complete (after polling), then what is still to do before the
 * scan; both go home after KIOSK_DONE_SECONDS.
 */
export function DoneStep({ step, store }: { step: 'success' | 'complete'; store: KioskCheckInStore }) {
  const { t } = useTranslation();
  const left = useReturnHome(KIOSK_DONE_SECONDS);
  return (
    <>
      <section className="pp-kiosk-card pp-kiosk-done" role="status">
        <h2>{step === 'success' ? t('kiosk.success.heading') : t('kiosk.complete.heading')}</h2>
        <p>{step === 'success' ? t('kiosk.success.text') : t('kiosk.complete.text')}</p>
        <p className="pp-kiosk-hint">{t('kiosk.returning', { count: left })}</p>
      </section>
      <div className="pp-kiosk-card pp-kiosk-checklist">
        <CheckInChecklistView load={store.loadChecklist} headingLevel={3} kiosk />
      </div>
    </>
  );
}

function ErrorReasonText({ store }: { store: KioskCheckInStore }) {
  const { t } = useTranslation();
  switch (store.errorReason) {
    case 'multiple':
      return <>{t('kiosk.error.multiple')}</>;
    case 'notSamePatient':
      return <>{t('kiosk.error.notSamePatient')}</>;
    case 'signIn':
      return <>{t('kiosk.error.signIn')}</>;
    case 'appointments':
      return <>{t('kiosk.error.appointments')}</>;
    case 'checkIn':
    case null:
      return <>{t('kiosk.error.checkIn')}</>;
  }
}

/** The error step: message.check_in_error with its description, and ask at the desk. */
export const ErrorStep = observer(function ErrorStep({ store }: { store: KioskCheckInStore }) {
  const { t } = useTranslation();
  return (
    <section className="pp-kiosk-card" role="alert">
      <h2>{t('message.check_in_error')}</h2>
      <p>
        <ErrorReasonText store={store} />
      </p>
      {store.errorDetail && <p>{store.errorDetail}</p>}
      <p>{t('message.check_in_error_desc')}</p>
      <p className="pp-kiosk-desk">{t('kiosk.error.askDesk')}</p>
    </section>
  );
});
