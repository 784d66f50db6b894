import { observer } from 'mobx-react-lite';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { RequiredDocumentNotice } from '../../components/required-document-notice';
import { ButtonLink } from '../../components/button';
import { useSelfServiceTexts } from '../../i18n/self-service-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { usePortalHref } from '../../shell/embedded';
import { paths } from '../../paths';
import { useStores } from '../../stores/use-stores';
import { LazyBookingCodeBox } from '../booking-code/public';
import { bookingConfirmedStoreOf, type BookingConfirmedStore } from './booking-confirmed-store';
import { PreparationList } from './preparation-list';
import { WaitlistSection } from './waitlist-section';
import { QuestionnairesDue } from './questionnaires-due';
import { AppointmentTimeRows, ClinicContact, FormDetailsRows, SentDocumentsRow, WalkInRow } from './summary-rows';
import './booking-confirmed.css';

type Summary = NonNullable<BookingConfirmedStore['summary']>;

/** Who is booked, when and where, and what was sent with the booking. */
function ConfirmedDetails({ summary }: { summary: Summary }) {
  const { t } = useTranslation();
  const patientName = [summary.patient.title, summary.patient.firstName, summary.patient.lastName].filter(Boolean).join(' ');
  return (
    <dl className="pp-details pp-confirmed-details">
      <div>
        <dt>{t('appointment.summary.patient')}</dt>
        <dd>{patientName}</dd>
      </div>
      <AppointmentTimeRows summary={summary} testId="confirmed-time" />
      <WalkInRow walkIn={summary.walkInExam} />
      <div>
        <dt>{t('appointment.summary.clinic')}</dt>
        <dd>
          <ClinicContact clinic={summary.clinic} />
        </dd>
      </div>
      <SentDocumentsRow documents={summary.documents} />
      <FormDetailsRows details={summary.formDetails} />
    </dl>
  );
}

/** Add to calendar: the .ics file, and Google and Outlook on the web. */
const CalendarSection = observer(function CalendarSection({ store, summary }: { store: BookingConfirmedStore; summary: Summary }) {
  const { t } = useTranslation();
  const exams = summary.appointments.map((appointment) => appointment.examName).join(', ');
  const links = store.calendarLinks(
    t('appointment.confirmed.eventTitle', { exams, clinic: summary.clinic.name }),
    t('appointment.summary.preparation'),
  );
  return (
    <section aria-labelledby="pp-confirmed-calendar">
      <h2 id="pp-confirmed-calendar">{t('appointment.confirmed.calendarTitle')}</h2>
      <div className="pp-button-row">
        <ButtonLink href={store.calendarFileUrl} download data-testid="calendar-ics">
          {t('appointment.confirmed.calendarFile')}
        </ButtonLink>
        {links && (
          <>
            <ButtonLink variant="secondary" href={links.google} target="_blank" rel="noopener noreferrer" data-testid="calendar-google">
              {t('appointment.confirmed.google')}
            </ButtonLink>
            <ButtonLink variant="secondary" href={links.outlook} target="_blank" rel="noopener noreferrer" data-testid="calendar-outlook">
              {t('appointment.confirmed.outlook')}
            </ButtonLink>
          </>
        )}
      </div>
    </section>
  );
});

/**
 * "You're booked" at /appointments/{bookingKey}/confirmed (also under /iframe): where the booking
 * flow goes after a booking (pushed, so Back and Forward keep it), readable again after a reload
 * by the browser that booked. The documents sent with it (names only), add to calendar (.ics,
 * Google, Outlook), the preparation once, the booking code for the kiosk, and the way to the appointment page.
 */
export const BookingConfirmed = observer(function BookingConfirmed() {
  const root = useStores();
  const store = root.featureStore(bookingConfirmedStoreOf);
  const { t } = useTranslation();
  const href = usePortalHref();
  const { bookingKey = '' } = useParams();
  const textsReady = useSelfServiceTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open(bookingKey);
  }, [store, bookingKey]);

  if (!textsReady) return <LoadingOverlay />;
  const summary = store.summary?.bookingKey === bookingKey ? store.summary : null;
  const pending = summary?.pending ?? false;
  // Held for a radiographer's review of the screening answers (docs/rules/screening-review.md): reserved, not yet booked.
  const inReview = summary?.status === 'ON_HOLD';
  const title = pending || inReview ? t('appointment.confirmed.titlePending') : t('appointment.confirmed.title');

  if (!summary) {
    return (
      <Page title={title} className="pp-appt pp-confirmed">
        <PageLoadState
          failed={store.loadState === 'error'}
          errorText={t('appointment.loadError')}
          retryText={t('appointment.retry')}
          onRetry={() => void store.open(bookingKey)}
        />
      </Page>
    );
  }

  return (
    <Page title={title} className="pp-appt pp-confirmed">
      <p role="status" className="pp-notice pp-notice-success">
        {inReview
          ? t('appointment.confirmed.leadReview')
          : pending
            ? t('appointment.confirmed.leadPending')
            : t('appointment.confirmed.lead')}{' '}
        {summary.patient.email ? t('appointment.confirmed.emailSent', { email: summary.patient.email }) : null}
      </p>
      <ConfirmedDetails summary={summary} />

      <QuestionnairesDue bookingKey={bookingKey} due={summary.questionnairesDue} back={paths.appointment(bookingKey)} />

      <CalendarSection store={store} summary={summary} />

      {summary.requiredDocument && <RequiredDocumentNotice document={summary.requiredDocument} />}
      <PreparationList appointments={summary.appointments} headingId="pp-confirmed-preparation" />

      <Suspense fallback={null}>
        <LazyBookingCodeBox bookingKey={bookingKey} />
      </Suspense>

      <WaitlistSection waitlist={store.waitlist} bookingKey={bookingKey} timeZone={summary.clinic.timeZone} />

      <section aria-labelledby="pp-confirmed-next">
        <h2 id="pp-confirmed-next">{t('appointment.confirmed.nextTitle')}</h2>
        <p>{t('appointment.confirmed.nextText')}</p>
        <div className="pp-button-row">
          <ButtonLink href={href(paths.appointment(bookingKey))} variant="secondary">
            {t('appointment.confirmed.manage')}
          </ButtonLink>
          <Link className="pp-target-link" to={href(paths.home())}>
            {t('appointment.confirmed.again')}
          </Link>
        </div>
      </section>
    </Page>
  );
});
