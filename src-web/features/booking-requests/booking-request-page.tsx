import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookingRequestSummary } from '@contract/api/booking-requests';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { Page } from '../../components/page';
import { StatusPill } from '../../components/status-pill';
import { SafeHtml } from '../../components/safe-html';
import { bookingRequestStoreOf, type BookingRequestStore } from './booking-request-store';
import { useStores } from '../../stores/use-stores';
import { ConfirmDialog, MessageDialog } from '../../components/modal-dialog';
import './booking-request.css';
import { PageLoadState } from '../../components/page-load-state';
import { RequiredDocumentNotice } from '../../components/required-document-notice';
import { useBookingPage } from '../../components/use-booking-page';
import { Button, ButtonLink } from '../../components/button';
import { LazyAttachmentsSection } from '../attachments/public';
import { setChatBookingRequest } from '../chat-assistant/public';
import { DetailsList } from '../../components/details-list';

/** A request made in the chat assistant (docs/rules/chat.md#what-staff-and-the-patient-see): where, when it suits, the screening. */
function ChatRequestRows({ summary }: { summary: BookingRequestSummary }) {
  const { t } = useTranslation();
  const timeLabel = (time: BookingRequestSummary['preferredTimes'][number]): string => {
    switch (time) {
      case 'weekdayMorning':
        return t('bookingRequest.request.time.weekdayMorning');
      case 'weekdayAfternoon':
        return t('bookingRequest.request.time.weekdayAfternoon');
      case 'saturdayMorning':
        return t('bookingRequest.request.time.saturdayMorning');
      case 'anyTime':
        return t('bookingRequest.request.time.anyTime');
    }
  };
  return (
    <>
      <div>
        <dt>{t('bookingRequest.request.channel')}</dt>
        <dd>{t('bookingRequest.request.channelChat')}</dd>
      </div>
      {summary.preferredTimes.length > 0 && (
        <div>
          <dt>{t('bookingRequest.request.preferredTimes')}</dt>
          <dd>{summary.preferredTimes.map(timeLabel).join(', ')}</dd>
        </div>
      )}
      {summary.screeningByPhone && (
        <div>
          <dt>{t('bookingRequest.request.screening')}</dt>
          <dd>{t('bookingRequest.request.screeningByPhone')}</dd>
        </div>
      )}
    </>
  );
}

const Details = observer(function Details({ summary }: { summary: BookingRequestSummary }) {
  const { t } = useTranslation();
  const patient = summary.patientDetails;
  const rows: [string, string | null][] = [
    [t('bookingRequest.patient.name'), [patient.title, patient.firstName, patient.lastName].filter(Boolean).join(' ')],
    [t('bookingRequest.patient.dateOfBirth'), patient.dateOfBirth],
    [t('bookingRequest.patient.email'), patient.email],
    [t('bookingRequest.patient.contactNumber'), patient.contactNumber],
    [t('bookingRequest.patient.postalCode'), patient.postalCode],
  ];
  return (
    <>
      <section aria-labelledby="pp-br-request-title">
        <h2 id="pp-br-request-title">{t('bookingRequest.request.title')}</h2>
        <dl className="pp-details">
          <div>
            <dt>{t('bookingRequest.request.status')}</dt>
            <dd>
              <StatusPill tone={summary.status === 'CANCELED' ? 'ended' : 'live'} testId="booking-request-status">
                {summary.status === 'CANCELED' ? t('bookingRequest.status.CANCELED') : t('bookingRequest.status.BOOKED')}
              </StatusPill>
            </dd>
          </div>
          <div>
            <dt>{t('bookingRequest.request.exams')}</dt>
            <dd>
              <ul className="pp-br-list">
                {summary.bookingDetails.exams.map((exam) => (
                  <li key={exam.slug}>{exam.nameWithModality || exam.name}</li>
                ))}
              </ul>
            </dd>
          </div>
          <div>
            <dt>{t('bookingRequest.request.clinic')}</dt>
            <dd>{summary.bookingDetails.clinicName ?? t('bookingRequest.request.anyClinic')}</dd>
          </div>
          {summary.patientNotes.trim() && (
            <div>
              <dt>{t('bookingRequest.request.notes')}</dt>
              <dd>{summary.patientNotes}</dd>
            </div>
          )}
          {summary.channel === 'chat' && <ChatRequestRows summary={summary} />}
          {(summary.bookedByChatService || summary.type === 'CHAT') && (
            <div>
              <dt>{t('bookingRequest.request.chatService')}</dt>
              <dd>
                {summary.bookedByChatService
                  ? t('bookingRequest.request.chatServiceBooked')
                  : t('bookingRequest.request.chatServiceTalking')}
              </dd>
            </div>
          )}
        </dl>
        {summary.requiredDocument && <RequiredDocumentNotice document={summary.requiredDocument} />}
      </section>
      <section aria-labelledby="pp-br-patient-title">
        <h2 id="pp-br-patient-title">{t('bookingRequest.patient.title')}</h2>
        <DetailsList rows={rows} />
      </section>
    </>
  );
});

const Actions = observer(function Actions({ store }: { store: BookingRequestStore }) {
  const { t } = useTranslation();
  const summary = store.summary;
  if (!summary) return null;
  const referrals = store.referrals;
  const single = referrals.length === 1 ? referrals[0] : undefined;
  return (
    <div className="pp-button-row pp-br-actions">
      {single && (
        <ButtonLink variant="secondary" href={single.href} download={single.fileName}>
          {t('bookingRequest.referral.download')}
        </ButtonLink>
      )}
      {referrals.length > 1 && (
        <Button variant="secondary" onClick={() => store.openAttachments()}>
          {t('bookingRequest.referral.attachments', { number: referrals.length })}
        </Button>
      )}
      {summary.bookingInfoHtml && (
        <Button variant="secondary" onClick={() => store.openBookingInfo()}>
          {t('bookingRequest.info.button')}
        </Button>
      )}
      {store.canCancel && (
        <Button variant="danger" disabled={store.busy} onClick={() => store.openCancel()}>
          {t('bookingRequest.cancel.button')}
        </Button>
      )}
    </div>
  );
});

const Dialogs = observer(function Dialogs({ store }: { store: BookingRequestStore }) {
  const { t } = useTranslation();
  const dialog = store.dialog;
  if (!dialog) return null;
  const close = () => store.closeDialog();
  switch (dialog.kind) {
    case 'cancelConfirm':
      return (
        <ConfirmDialog
          title={t('bookingRequest.cancel.confirmTitle')}
          text={t('bookingRequest.cancel.confirmText')}
          yes={t('bookingRequest.yes')}
          no={t('bookingRequest.no')}
          onYes={() => void store.cancel()}
          onNo={close}
          busy={store.busy}
          danger
        />
      );
    case 'attachments':
      return (
        <MessageDialog role="dialog" title={t('bookingRequest.referral.title')} closeText={t('action.close')} onClose={close}>
          <ul className="pp-br-list">
            {store.referrals.map((referral) => (
              <li key={referral.id}>
                <a className="pp-target-link" href={referral.href} download={referral.fileName}>
                  {referral.fileName}
                </a>
              </li>
            ))}
          </ul>
        </MessageDialog>
      );
    case 'bookingInfo':
      return (
        <MessageDialog role="dialog" title={t('bookingRequest.info.title')} closeText={t('action.close')} onClose={close}>
          <SafeHtml html={store.summary?.bookingInfoHtml ?? ''} className="pp-rich-text" />
        </MessageDialog>
      );
    case 'error':
      return (
        <MessageDialog title={t('bookingRequest.errorTitle')} closeText={t('action.close')} onClose={close}>
          <p>{dialog.message || t('bookingRequest.errorDefault')}</p>
        </MessageDialog>
      );
  }
});

/** The booking request at /booking-requests/{bookingKey} and /br/{key}, also under /iframe. */
export const BookingRequestPage = observer(function BookingRequestPage() {
  const root = useStores();
  const store = root.featureStore(bookingRequestStoreOf);
  const { t } = useTranslation();
  // The booking information is configured HTML.
  const { bookingKey, textsReady } = useBookingPage(store, Boolean(store.summary?.bookingInfoHtml));

  const summary = store.summary?.bookingKey === bookingKey ? store.summary : null;
  // The provider's chat service may talk about a live request not yet booked (docs/rules/chat.md#the-providers-chat-service).
  const chatAbout = summary !== null && summary.status === 'BOOKED' && !summary.bookedByChatService;
  useEffect(() => {
    if (!chatAbout) return undefined;
    setChatBookingRequest({ bookingKey, onChanged: () => void store.open(bookingKey) });
    return () => setChatBookingRequest(null);
  }, [chatAbout, bookingKey, store]);
  if (!textsReady) return <LoadingOverlay />;

  return (
    <Page title={t('bookingRequest.title')} className="pp-br">
      {store.cancelled && summary && (
        <p role="status" className="pp-notice pp-notice-success" tabIndex={-1} data-dialog-return>
          {t('bookingRequest.cancel.done')}
        </p>
      )}
      {!summary && (
        <PageLoadState
          failed={store.loadState === 'error'}
          errorText={t('bookingRequest.loadError')}
          retryText={t('bookingRequest.retry')}
          onRetry={() => void store.open(bookingKey)}
        />
      )}
      {summary && (
        <>
          <Details summary={summary} />
          <LazyAttachmentsSection owner={{ base: 'booking_requests', bookingKey }} onChanged={() => void store.open(bookingKey)} />
          <Actions store={store} />
        </>
      )}
      <Dialogs store={store} />
    </Page>
  );
});
