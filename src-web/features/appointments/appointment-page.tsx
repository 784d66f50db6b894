import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { AppointmentStatus, AppointmentSummary } from '@contract/api/appointments';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { Page } from '../../components/page';
import { appointmentStoreOf, type AppointmentStore } from './appointment-store';
import { useStores } from '../../stores/use-stores';
import { AppointmentDialogs } from './appointment-dialogs';
import './appointment.css';
import { PageLoadState } from '../../components/page-load-state';
import { RequiredDocumentNotice } from '../../components/required-document-notice';
import { LazyAttachmentsSection } from '../attachments/public';
import { LazyBookingCodeBox } from '../booking-code/public';
import { CHECK_IN_STATUSES, CheckInSection } from '../check-in/public';
import { useBookingPage } from '../../components/use-booking-page';
import { Button } from '../../components/button';
import { PreparationList } from './preparation-list';
import { DayPlanSection } from './day-plan-section';
import { WaitlistSection } from './waitlist-section';
import { QuestionnairesDue } from './questionnaires-due';
import { AppointmentTimeRows, ClinicContact, FormDetailsRows, WalkInRow } from './summary-rows';
import { CONFIRMED_SEGMENT } from '../../paths';
import { StatusPill, type StatusTone } from '../../components/status-pill';

/** Cancelled and moved-away bookings read as ended; a confirmed one as settled. */
function statusTone(status: AppointmentStatus): StatusTone {
  if (status === 'CONFIRMED') return 'good';
  return status === 'CANCELED' || status === 'RESCHEDULED' || status === 'CHANGED' ? 'ended' : 'live';
}

/** The status line, one literal key per status so the catalogue check sees each. */
export function statusText(t: TFunction, status: AppointmentStatus): string {
  switch (status) {
    case 'BOOKED':
      return t('appointment.status.BOOKED');
    case 'PENDING':
      return t('appointment.status.PENDING');
    case 'CONFIRMED':
      return t('appointment.status.CONFIRMED');
    case 'CANCELED':
      return t('appointment.status.CANCELED');
    case 'RESCHEDULED':
      return t('appointment.status.RESCHEDULED');
    case 'CHANGED':
      return t('appointment.status.CHANGED');
    case 'REQUEST_RESCHEDULE':
      return t('appointment.status.REQUEST_RESCHEDULE');
    case 'CHECKED_IN':
      return t('appointment.status.CHECKED_IN');
    default:
      return t('appointment.status.other');
  }
}

function noticeText(t: TFunction, notice: NonNullable<AppointmentStore['notice']>): string {
  switch (notice) {
    case 'cancelled':
      return t('appointment.notice.cancelled');
    case 'confirmed':
      return t('appointment.notice.confirmed');
    case 'unsubscribed':
      return t('appointment.notice.unsubscribed');
    case 'requestedReschedule':
      return t('appointment.notice.requestedReschedule');
    case 'moved':
      return t('appointment.notice.moved');
    case 'consentSigned':
      return t('appointment.notice.consentSigned');
  }
}

const Summary = observer(function Summary({ summary }: { summary: AppointmentSummary }) {
  const { t } = useTranslation();
  const { clinic, patient } = summary;
  return (
    <section className="pp-appt-summary" aria-labelledby="pp-appt-summary-title">
      <h2 id="pp-appt-summary-title">{t('appointment.summary.title')}</h2>
      <dl className="pp-details">
        <div>
          <dt>{t('appointment.summary.status')}</dt>
          <dd>
            <StatusPill tone={statusTone(summary.status)} testId="appointment-status">
              {statusText(t, summary.status)}
            </StatusPill>
            {summary.confirmed && summary.status !== 'CONFIRMED' && (
              <span className="pp-muted"> · {t('appointment.summary.confirmed')}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('appointment.summary.patient')}</dt>
          <dd>{[patient.title, patient.firstName, patient.lastName].filter(Boolean).join(' ')}</dd>
        </div>
        <AppointmentTimeRows summary={summary} testId="appointment-time" />
        <WalkInRow walkIn={summary.walkInExam} />
        <div>
          <dt>{t('appointment.summary.clinic')}</dt>
          <dd>
            <ClinicContact clinic={clinic} />
            <br />
            <a className="pp-target-link" href={clinic.mapUrl} target="_blank" rel="noopener noreferrer">
              {t('appointment.summary.map', { clinic: clinic.name })}
            </a>
          </dd>
        </div>
        <FormDetailsRows details={summary.formDetails} />
      </dl>
      {summary.requiredDocument && <RequiredDocumentNotice document={summary.requiredDocument} />}
      <PreparationList appointments={summary.appointments} headingId="pp-appt-preparation-title" />
    </section>
  );
});

const Actions = observer(function Actions({ store }: { store: AppointmentStore }) {
  const { t } = useTranslation();
  const summary = store.summary;
  if (!summary) return null;
  const busy = store.busy;
  return (
    <>
      <QuestionnairesDue bookingKey={summary.bookingKey} due={summary.questionnairesDue} />
      {store.live && (
        <section aria-labelledby="pp-appt-actions-title">
          <h2 id="pp-appt-actions-title">{t('appointment.actions.title')}</h2>
          <div className="pp-button-row">
            {store.canConfirm && (
              <Button disabled={busy} onClick={() => void store.confirm()}>
                {t('appointment.actions.confirm')}
              </Button>
            )}
            <Button variant="secondary" disabled={busy} onClick={() => void store.rescheduling.startReschedule('RESCHEDULED')}>
              {t('appointment.actions.reschedule')}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => void store.rescheduling.startReschedule('CHANGED')}>
              {t('appointment.actions.change')}
            </Button>
            {summary.status !== 'REQUEST_RESCHEDULE' && (
              <Button variant="secondary" disabled={busy} onClick={() => store.rescheduling.openRequestReschedule()}>
                {t('appointment.actions.requestReschedule')}
              </Button>
            )}
            <Button variant="danger" disabled={busy} onClick={() => void store.cancellation.startCancel()}>
              {t('appointment.actions.cancel')}
            </Button>
          </div>
        </section>
      )}
      {store.live && store.consent.consentForms.length > 0 && (
        <section aria-labelledby="pp-appt-consent-title">
          <h2 id="pp-appt-consent-title">{t('appointment.consent.title')}</h2>
          <ul className="pp-appt-consent-list">
            {store.consent.consentForms.map((form) => (
              <li key={form.id}>
                <span>{form.title}</span>{' '}
                <span className="pp-muted">
                  {form.signed ? t('appointment.consent.signed', { name: form.signedName ?? '' }) : t('appointment.consent.unsigned')}
                </span>{' '}
                <button type="button" className="pp-link-button" onClick={() => store.consent.openConsent(form.id)}>
                  {form.signed
                    ? t('appointment.consent.view', { title: form.title })
                    : t('appointment.consent.sign', { title: form.title })}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="pp-appt-more-title">
        <h2 id="pp-appt-more-title">{t('appointment.more.title')}</h2>
        <div className="pp-button-row">
          <Button variant="secondary" disabled={busy} onClick={() => store.detailsChange.openDetailsChange()}>
            {t('appointment.more.details')}
          </Button>
          {summary.emailUnsubscribed ? (
            <p className="pp-muted">{t('appointment.more.unsubscribed')}</p>
          ) : (
            <Button variant="secondary" disabled={busy} onClick={() => void store.unsubscribe()}>
              {t('appointment.more.unsubscribe')}
            </Button>
          )}
        </div>
      </section>
    </>
  );
});

/**
 * The patient's appointment at /appointments/{bookingKey}, /a/{key}, the pending and clinic-path
 * variants, also under /iframe: the summary and every self-service action.
 */
const AppointmentDetails = observer(function AppointmentDetails() {
  const root = useStores();
  const store = root.featureStore(appointmentStoreOf);
  const { t } = useTranslation();
  // Consent forms are configured HTML.
  const { bookingKey, textsReady } = useBookingPage(store, store.consent.consentForms.length > 0);

  const summary = store.summary?.bookingKey === bookingKey ? store.summary : null;
  if (!textsReady) return <LoadingOverlay />;

  return (
    <Page title={t('appointment.title')} className="pp-appt">
      {store.notice && summary && (
        <p role="status" className="pp-notice pp-notice-success" tabIndex={-1} data-dialog-return>
          {noticeText(t, store.notice)}
        </p>
      )}
      {!summary && (
        <PageLoadState
          failed={store.loadState === 'error'}
          errorText={t('appointment.loadError')}
          retryText={t('appointment.retry')}
          onRetry={() => void store.open(bookingKey)}
        />
      )}
      {summary && (
        <>
          {summary.pending && <p className="pp-notice">{t('appointment.pending')}</p>}
          <Summary summary={summary} />
          <DayPlanSection dayPlan={store.dayPlan} consentOnPage={store.live} />
          {store.live && <WaitlistSection waitlist={store.waitlist} bookingKey={bookingKey} timeZone={summary.clinic.timeZone} />}
          {store.live && (
            <Suspense fallback={null}>
              <LazyBookingCodeBox bookingKey={bookingKey} />
            </Suspense>
          )}
          {summary.appointments
            .filter((appointment) => CHECK_IN_STATUSES.includes(appointment.status))
            .map((appointment) => (
              <CheckInSection
                key={appointment.slug}
                bookingKey={bookingKey}
                appointmentSlug={appointment.slug}
                timeZone={summary.clinic.timeZone}
                documentsVersion={store.documentsVersion}
                onCheckedIn={() => void store.open(bookingKey)}
              />
            ))}
          <LazyAttachmentsSection owner={{ base: 'appointments', bookingKey }} onChanged={() => void store.documentsChanged(bookingKey)} />
          <Actions store={store} />
        </>
      )}
      <AppointmentDialogs store={store} />
    </Page>
  );
});

// "You're booked" (/appointments/{key}/confirmed) loads with its own chunk, only when shown.
const BookingConfirmed = lazy(() => import('./booking-confirmed').then((module) => ({ default: module.BookingConfirmed })));

/**
 * The appointment's address: its page, or at /confirmed the confirmation the booking flow goes
 * to (docs/rules/booking.md#confirmation), which the browser that booked reads without signing in.
 */
export function AppointmentPage() {
  const { '*': rest = '' } = useParams();
  if (rest !== CONFIRMED_SEGMENT) return <AppointmentDetails />;
  return (
    <Suspense fallback={<LoadingOverlay />}>
      <BookingConfirmed />
    </Suspense>
  );
}
