import { reaction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Page } from '../../shell/page';
import { BOOKING_QUERY_KEYS } from '../../stores/booking-store';
import { useStores } from '../../stores/use-stores';
import { BookingStepper } from './booking-stepper';
import { ExamStep } from './exam-step';
import './booking.css';

// Step 0 is the first screen and ships with the page; the later steps load when reached, so
// the booking home stays inside its JavaScript budget (issue 3).
const LocationStep = lazy(() => import('./location-step').then((m) => ({ default: m.LocationStep })));
const DetailsStep = lazy(() => import('./details-step').then((m) => ({ default: m.DetailsStep })));
const ConfirmationStep = lazy(() => import('./confirmation-step').then((m) => ({ default: m.ConfirmationStep })));

/** Starts the next steps' downloads once the patient has chosen an exam, before they are needed. */
function prefetchLaterSteps(): void {
  void import('./location-step');
  void import('./details-step');
}

/** The booking portal at / and /advanced-booking (and under /iframe): steps 0 to 3 (issue 3). */
export const BookingPage = observer(function BookingPage() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstStep = useRef(true);
  const startedWith = useRef(params);

  useEffect(() => {
    void booking.start(startedWith.current);
    return () => booking.dispose();
  }, [booking]);

  // The flow's choices live in the URL (replace, so Back leaves the page as before).
  useEffect(
    () =>
      reaction(
        () => booking.query,
        (query) => {
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              for (const key of BOOKING_QUERY_KEYS) {
                const value = query[key];
                if (value === null) next.delete(key);
                else next.set(key, value);
              }
              return next;
            },
            { replace: true },
          );
        },
      ),
    [booking, setParams],
  );

  useEffect(() => {
    if (booking.selectedSlugs.length > 0) prefetchLaterSteps();
  }, [booking.selectedSlugs.length]);

  // After a step change, focus its heading so a screen reader announces the new step.
  const step = booking.step;
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const stepTitle = [t('booking.exams.title'), t('booking.location.title'), t('booking.details.title'), t('booking.confirmation.heading')][step];

  return (
    <Page title={t('booking.title')} className="pp-booking">
      <div data-booking-ready={booking.catalogueState === 'loaded' ? 'true' : 'false'} data-booking-step={step}>
        <BookingStepper step={step} />
        <h2 ref={headingRef} tabIndex={-1} className="pp-booking-step-title">
          {stepTitle}
        </h2>
        <Suspense fallback={<p role="status">{t('message.loading')}</p>}>
          {step === 0 && <ExamStep />}
          {step === 1 && <LocationStep />}
          {step === 2 && <DetailsStep />}
          {step === 3 && <ConfirmationStep />}
        </Suspense>
      </div>
    </Page>
  );
});
