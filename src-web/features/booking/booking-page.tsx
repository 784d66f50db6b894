import { reaction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../paths';
import { loadBookingStepsTexts, useBookingStepsTexts } from './booking-steps-texts';
import { usePortalHref } from '../../shell/embedded';
import { Page } from '../../components/page';
import { BOOKING_QUERY_KEYS } from './booking-store';
import type { RootStore } from '../../stores/root-store';
import { useStores } from '../../stores/use-stores';
import { bookingQuestionnaireHooks, loadBookingQuestionnaires } from '../questionnaires/public';
import { BookingStepper } from './booking-stepper';
import { ExamStep } from './exam-step';
import './booking.css';
import './booking-place-and-time.css';

// Step 0 is the first screen and ships with the page; the later steps load when reached, so
// the booking home stays inside its JavaScript budget (docs/web.md#budgets).
const LocationStep = lazy(() => import('./location-step').then((m) => ({ default: m.LocationStep })));
const DetailsStep = lazy(() => import('./details-step').then((m) => ({ default: m.DetailsStep })));
const ConfirmationStep = lazy(() => import('./confirmation-step').then((m) => ({ default: m.ConfirmationStep })));
// Moving an existing appointment (?reschedule=<bookingKey>&context=RESCHEDULED|CHANGED, docs/rules/appointments.md#reschedule):
// the last step is a summary with "Move my appointment" instead of the details form; its code
// (and the appointments API) load only when that step is reached.
const RescheduleStep = lazy(() => import('./reschedule-step').then((m) => ({ default: m.RescheduleStep })));
// The chosen exams' questionnaires: their code and SurveyJS load when the exams are chosen.
const BookingQuestionnaires = lazy(() => loadBookingQuestionnaires().then((m) => ({ default: m.BookingQuestionnaires })));

/** Starts the next steps' downloads (code, stores, texts) once the patient has chosen an exam, before they are needed. */
function prefetchLaterSteps(root: RootStore): void {
  void import('./location-step');
  void import('./details-step');
  // Tried again when the patient continues.
  root.booking.loadLaterSteps().catch(() => undefined);
  loadBookingStepsTexts(root.i18n.i18n, root.i18n.locale).catch(() => undefined);
}

/** Whether chosen exams are the ones a comma-separated list names, in any order. */
function sameExams(list: string): (slugs: readonly string[]) => boolean {
  const named = list.split(',').filter(Boolean).sort().join(',');
  return (slugs) => [...slugs].sort().join(',') === named;
}

/** The booking portal at / and /advanced-booking (and under /iframe): steps 0 to 3 (docs/rules/booking.md#steps). */
export const BookingPage = observer(function BookingPage() {
  const root = useStores();
  const { booking } = root;
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstStep = useRef(true);
  const startedWith = useRef(params);
  const rescheduleKey = startedWith.current.get('reschedule');
  const rescheduleContext = startedWith.current.get('context') === 'CHANGED' ? 'CHANGED' : 'RESCHEDULED';

  const [questionnaires, setQuestionnaires] = useState(false);
  // Where the questionnaires' outcome is said: under the step heading, in the page's flow.
  const [outcomeSlot, setOutcomeSlot] = useState<HTMLDivElement | null>(null);
  const navigate = useNavigate();
  const portalHref = usePortalHref();

  useEffect(() => {
    // Moving a booking to another time keeps its answers: no questionnaires for its own exams.
    // Other exams (a change, or a patient who went back and chose others) ask theirs: the
    // server requires their screening.
    const hooks = bookingQuestionnaireHooks(root, () => setQuestionnaires(true));
    const booked = sameExams(startedWith.current.get('exams') ?? '');
    booking.questionnaireHooks =
      rescheduleKey !== null && rescheduleContext === 'RESCHEDULED'
        ? { ...hooks, beforeLocation: (slugs) => (booked(slugs) ? Promise.resolve(true) : hooks.beforeLocation(slugs)) }
        : hooks;
    void booking.start(startedWith.current);
    return () => booking.dispose();
  }, [root, booking, rescheduleKey, rescheduleContext]);

  // The flow's choices live in the URL (replace, so Back leaves the page as before). A choice
  // never moves the page: without preventScrollReset, ScrollRestoration scrolls every new
  // location to the top, and the patient would scroll back ~2,000 px after each choice.
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
            { replace: true, preventScrollReset: true },
          );
        },
      ),
    [booking, setParams],
  );

  // A booking made: on to its confirmation's own address (docs/rules/booking.md#confirmation),
  // pushed so Back and Forward keep it; the booking home's URL lost its choices just before.
  // Only a booking made on this visit: coming Back here finds the last one and starts afresh.
  const result = booking.result;
  const resultAtMount = useRef(result);
  const confirmedHref = result?.kind === 'appointment' ? portalHref(paths.appointmentConfirmed(result.response.bookingKey)) : null;
  useEffect(() => {
    if (confirmedHref !== null && result !== resultAtMount.current) {
      resultAtMount.current = result;
      navigate(confirmedHref);
    }
  }, [result, confirmedHref, navigate]);

  useEffect(() => {
    if (rescheduleKey) void import('./reschedule-step').then((m) => m.prepareReschedule(root, rescheduleKey));
  }, [root, rescheduleKey]);

  useEffect(() => {
    if (booking.examChoice.selectedSlugs.length > 0) prefetchLaterSteps(root);
  }, [root, booking.examChoice.selectedSlugs.length]);

  const step = booking.step;
  // The later steps' texts: prefetched with an exam chosen, else loaded when a later step shows (a reload).
  const stepsTexts = useBookingStepsTexts(root.i18n.i18n, root.i18n.locale, step > 0);

  // After a step change, focus its heading so a screen reader announces the new step.
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const stepTitle = [
    t('booking.exams.title'),
    t('booking.location.title'),
    rescheduleKey ? t('booking.reschedule.title') : t('booking.details.title'),
    t('booking.confirmation.heading'),
  ][step];

  return (
    <Page title={t('booking.title')} className="pp-booking">
      <div data-booking-ready={booking.examChoice.catalogueState === 'loaded' ? 'true' : 'false'} data-booking-step={step}>
        <BookingStepper step={step} />
        {rescheduleKey && (
          <p className="pp-notice">
            {rescheduleContext === 'CHANGED' ? t('booking.reschedule.changeBanner') : t('booking.reschedule.banner')}
          </p>
        )}
        {/* data-dialog-return: a dialog closing after the step changed (the questionnaires) hands focus here. */}
        <h2 ref={headingRef} tabIndex={-1} className="pp-booking-step-title" data-dialog-return>
          {stepTitle}
        </h2>
        <div ref={setOutcomeSlot} className="pp-booking-outcome-slot" />
        <Suspense fallback={<p role="status">{t('message.loading')}</p>}>
          {step === 0 && <ExamStep />}
          {step > 0 && !stepsTexts && <p role="status">{t('message.loading')}</p>}
          {stepsTexts && step === 1 && <LocationStep />}
          {stepsTexts &&
            step === 2 &&
            (rescheduleKey ? <RescheduleStep bookingKey={rescheduleKey} context={rescheduleContext} /> : <DetailsStep />)}
          {stepsTexts && step === 3 && <ConfirmationStep />}
        </Suspense>
        {questionnaires && (
          <Suspense fallback={null}>
            <BookingQuestionnaires outcomeSlot={outcomeSlot} />
          </Suspense>
        )}
      </div>
    </Page>
  );
});
