import { observer } from 'mobx-react-lite';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { AppointmentReplyView } from '@contract/api/appointment-reply';
import { Button, ButtonLink } from '../../components/button';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { formatStartTime } from '../booking/public';
import { appointmentReplyStoreOf, type AppointmentReplyStore } from './appointment-reply-store';
import { useAppointmentReplyTexts } from './appointment-reply-texts';
import './appointment-reply.css';

/** The appointment as the reminder named it: each exam with its start (the clinic's time zone), and the clinic. */
function AppointmentDetails({ view }: { view: AppointmentReplyView }) {
  const { t, i18n } = useTranslation();
  return (
    <dl className="pp-details" data-testid="reply-appointment">
      {view.appointments.map((appointment) => (
        <div key={`${appointment.examName}-${appointment.startsAt}`}>
          <dt>{appointment.examName}</dt>
          <dd>
            <time dateTime={appointment.startsAt}>{formatStartTime(appointment.startsAt, i18n.language, view.clinic.timeZone, true)}</time>
          </dd>
        </div>
      ))}
      <div>
        <dt>{t('appointmentReply.where')}</dt>
        <dd>{view.clinic.name}</dd>
      </div>
    </dl>
  );
}

/** The last button press's outcome, focused when it appears so a screen reader and the keyboard land on it. */
const Outcome = observer(function Outcome({ store }: { store: AppointmentReplyStore }) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLParagraphElement>(null);
  const count = store.page.outcomeCount;
  useEffect(() => {
    if (count > 0) ref.current?.focus();
  }, [count]);
  const { outcome, view } = store.page;
  if (outcome === null || view === null) return null;
  const first = view.appointments[0];
  const when = first === undefined ? '' : formatStartTime(first.startsAt, i18n.language, view.clinic.timeZone, false);
  const failed = outcome.kind === 'failed' || outcome.kind === 'refused';
  const text = {
    confirmed: t('appointmentReply.confirmed', { when }),
    cancelled: t('appointmentReply.cancelled'),
    failed: t('appointmentReply.actionFailed'),
    refused: outcome.kind === 'refused' ? outcome.message : '',
  }[outcome.kind];
  return (
    <p
      ref={ref}
      role={failed ? 'alert' : 'status'}
      tabIndex={-1}
      className={`pp-notice ${failed ? 'pp-notice-error' : 'pp-notice-success'}`}
      data-testid="reply-outcome"
    >
      {text}
    </p>
  );
});

/** "Will you come?": the one main answer, and the way to the other. */
const ConfirmQuestion = observer(function ConfirmQuestion({ store }: { store: AppointmentReplyStore }) {
  const { t } = useTranslation();
  const view = store.page.view as AppointmentReplyView;
  const confirmedBefore = view.state === 'CONFIRMED' && store.page.outcome?.kind !== 'confirmed';
  return (
    <section className="pp-reply-question" aria-labelledby="pp-reply-confirm-heading">
      <h2 id="pp-reply-confirm-heading">{t('appointmentReply.willYouCome')}</h2>
      {confirmedBefore && <p className="pp-notice pp-notice-success">{t('appointmentReply.alreadyConfirmed')}</p>}
      {view.state === 'WAITING' && <p className="pp-notice">{t('appointmentReply.waiting')}</p>}
      <div className="pp-actions">
        {view.canConfirm && (
          <Button onClick={() => void store.send('confirm')} disabled={store.page.saving} aria-busy={store.page.saving}>
            {store.page.saving ? t('appointmentReply.saving') : t('appointmentReply.yes')}
          </Button>
        )}
        {view.canCancel && (
          <Button variant="secondary" onClick={() => store.choose('cancel')} disabled={store.page.saving}>
            {t('appointmentReply.no')}
          </Button>
        )}
      </div>
    </section>
  );
});

/** "Cancel your appointment?": what happens, the cancel button, and the way back. */
const CancelQuestion = observer(function CancelQuestion({ store }: { store: AppointmentReplyStore }) {
  const { t } = useTranslation();
  return (
    <section className="pp-reply-question" aria-labelledby="pp-reply-cancel-heading">
      <h2 id="pp-reply-cancel-heading">{t('appointmentReply.cancelQuestion')}</h2>
      <p>{t('appointmentReply.cancelExplained')}</p>
      <div className="pp-actions">
        <Button variant="danger" onClick={() => void store.send('cancel')} disabled={store.page.saving} aria-busy={store.page.saving}>
          {store.page.saving ? t('appointmentReply.saving') : t('appointmentReply.cancel')}
        </Button>
        <Button variant="secondary" onClick={() => store.choose('confirm')} disabled={store.page.saving}>
          {t('appointmentReply.keep')}
        </Button>
      </div>
    </section>
  );
});

/** Where the booking stands when no answer is possible any more, and what to do instead. */
function Closed({ view, justCancelled }: { view: AppointmentReplyView; justCancelled: boolean }) {
  const { t } = useTranslation();
  if (view.state === 'CANCELLED')
    return (
      <section className="pp-reply-question" aria-label={t('appointmentReply.bookAgainLabel')}>
        {!justCancelled && <p className="pp-notice">{t('appointmentReply.isCancelled')}</p>}
        <ButtonLink variant="secondary" href="/">
          {t('appointmentReply.bookAgain')}
        </ButtonLink>
      </section>
    );
  return <p className="pp-notice">{view.state === 'STARTED' ? t('appointmentReply.started') : t('appointmentReply.ended')}</p>;
}

const AppointmentReplyView = observer(function AppointmentReplyView({ store }: { store: AppointmentReplyStore }) {
  const { t } = useTranslation();
  const { view } = store.page;
  const open = view !== null && (view.canConfirm || view.canCancel);
  return (
    <Page title={t('appointmentReply.title')} className="pp-appointment-reply">
      {store.page.state === 'invalid' && (
        <p role="alert" className="pp-notice pp-notice-error" data-testid="reply-invalid">
          {t('appointmentReply.invalid')}
        </p>
      )}
      {(store.page.state === 'loading' || store.page.state === 'idle' || store.page.state === 'failed') && (
        <PageLoadState
          failed={store.page.state === 'failed'}
          errorText={t('appointmentReply.loadError')}
          retryText={t('appointmentReply.retry')}
          onRetry={() => void store.page.retry()}
        />
      )}
      {store.page.state === 'ready' && view !== null && (
        <>
          <p className="pp-muted">{view.providerName}</p>
          <AppointmentDetails view={view} />
          <Outcome store={store} />
          {open && (store.answer === 'cancel' && view.canCancel ? <CancelQuestion store={store} /> : <ConfirmQuestion store={store} />)}
          {!open && <Closed view={view} justCancelled={store.page.outcome?.kind === 'cancelled'} />}
          <footer className="pp-reply-more">
            {view.state !== 'CANCELLED' && (
              <p>
                <a href={view.appointmentUrl}>{t('appointmentReply.openAppointment')}</a>
              </p>
            )}
            {view.clinic.phone !== null && (
              <p>
                {t('appointmentReply.questions', { clinic: view.clinic.name })}{' '}
                <a href={`tel:${view.clinic.phone.replace(/\s/g, '')}`}>{view.clinic.phone}</a>
              </p>
            )}
          </footer>
        </>
      )}
    </Page>
  );
});

/** /appointment-reply?token=…&answer=…: the reminder mail's buttons. Nothing changes until a button here is pressed. */
export const AppointmentReplyPage = observer(function AppointmentReplyPage() {
  const root = useStores();
  const store = root.featureStore(appointmentReplyStoreOf);
  const [params] = useSearchParams();
  const token = params.get('token');
  const answer = params.get('answer');
  const textsReady = useAppointmentReplyTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open(token, answer);
  }, [store, token, answer]);

  if (!textsReady) return <LoadingOverlay />;
  return <AppointmentReplyView store={store} />;
});
