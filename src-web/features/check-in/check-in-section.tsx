import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { createCheckInApi } from '../../api/check-in-api';
import { Button } from '../../components/button';
import { ModalDialog } from '../../components/modal-dialog';
import { localDate } from '../../platform/dates';
import type { FeatureStoreContext } from '../../stores/root-store';
import { useStores } from '../../stores/use-stores';
import { UPLOAD_PARAM } from '../attachments/public';
import { CheckInChecklistView } from './check-in-checklist';
import { CheckInForm } from './check-in-form';
import { CheckInStore } from './check-in-store';
import './check-in.css';

const checkInApiOf = ({ client }: FeatureStoreContext) => createCheckInApi(client);

const CheckInDialogs = observer(function CheckInDialogs({ store }: { store: CheckInStore }) {
  const { t } = useTranslation();
  const close = () => {
    store.closeDialog();
    void store.load();
  };
  switch (store.dialog) {
    case null:
      return null;
    case 'simpleConfirm':
      return (
        <ModalDialog
          title={t('checkIn.simpleConfirmTitle')}
          onDismiss={() => store.closeDialog()}
          actions={
            <>
              <Button onClick={() => void store.confirmSimple()}>{t('checkIn.confirm')}</Button>
              <Button variant="secondary" onClick={() => store.closeDialog()}>
                {t('checkIn.cancel')}
              </Button>
            </>
          }
        >
          <p>{t('checkIn.simpleConfirmText')}</p>
        </ModalDialog>
      );
    case 'processing':
      // A spinner and no buttons: the hand-off to the clinic is on its way (docs/rules/check-in.md#the-web-app).
      return (
        <ModalDialog title={t('checkIn.processingTitle')} role="alertdialog" actions={null}>
          <p className="pp-checkin-processing">
            <span className="pp-spinner" aria-hidden="true" /> {t('checkIn.processingText')}
          </p>
        </ModalDialog>
      );
    case 'confirmed':
      return (
        <ModalDialog title={t('checkIn.confirmedTitle')} onDismiss={close} actions={<Button onClick={close}>{t('checkIn.ok')}</Button>}>
          <p>{t('checkIn.confirmedText')}</p>
        </ModalDialog>
      );
    case 'error':
      return (
        <ModalDialog
          title={t('message.check_in_error')}
          role="alertdialog"
          onDismiss={close}
          actions={<Button onClick={close}>{t('checkIn.ok')}</Button>}
        >
          <p>{store.errorMessage ?? t('message.check_in_error_desc')}</p>
        </ModalDialog>
      );
  }
});

/** What the section says before the form: off, done, on its way, failed, out of window, or not ready. */
const CheckInBody = observer(function CheckInBody({ store, timeZone }: { store: CheckInStore; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const status = store.status;
  if (!status) return null;
  const today = localDate(new Date(), timeZone);
  switch (status.state) {
    case 'CHECKED_IN':
      return (
        <>
          <p role="status" className="pp-notice pp-notice-success">
            {t('checkIn.done')}
          </p>
          {/* The appointment page prints the preparation once, above. */}
          <CheckInChecklistView load={store.loadChecklist} headingLevel={3} preparationShown />
        </>
      );
    case 'FAILED':
      return <p className="pp-notice pp-notice-error">{t('checkIn.failed')}</p>;
    case 'PREPARING':
    case 'PREPARED':
    case 'CHECKING_IN':
      return <p className="pp-notice">{t('checkIn.onItsWay')}</p>;
    case 'NOT_STARTED':
      break;
  }
  const referralLink = () => {
    const search = new URLSearchParams(location.search);
    search.set(UPLOAD_PARAM, '1');
    return (
      <p className="pp-notice">
        {t('checkIn.referralMissing')}{' '}
        <Link to={{ pathname: location.pathname, search: `?${search.toString()}` }}>{t('checkIn.uploadReferral')}</Link>
      </p>
    );
  };
  const referralMissing = !status.readiness.requiredReferralUploaded && status.readiness.documentTypeId !== null;
  if (!status.windowOpen) {
    const time = new Intl.DateTimeFormat(i18n.language, { timeZone, weekday: 'short', hour: 'numeric', minute: '2-digit' }).format(
      new Date(status.opensAt),
    );
    // Early: when check-in opens, and the referral can go up now.
    return (
      <>
        <p className="pp-notice">{t('message.late_enable_digital_check_in_error', { count: status.priorMinutes, time })}</p>
        {referralMissing && referralLink()}
      </>
    );
  }
  if (!status.readiness.ready) {
    return referralMissing ? referralLink() : <p className="pp-notice">{status.readiness.message ?? t('message.unknown_reason')}</p>;
  }
  if (status.simpleMode) {
    return (
      <>
        <p>{t('checkIn.simpleIntro')}</p>
        <Button disabled={store.submitting} onClick={() => store.askSimpleConfirm()}>
          {t('checkIn.submit')}
        </Button>
      </>
    );
  }
  return (
    <>
      <p>{t('checkIn.intro')}</p>
      <CheckInForm store={store} today={today} />
    </>
  );
});

/**
 * Digital check-in on the appointment page (docs/rules/check-in.md): shown when the provider and
 * the exam take it (and not while its status cannot be read: check-in at the desk still works).
 * `documentsVersion` changes after a document upload, so readiness is asked again.
 */
export const CheckInSection = observer(function CheckInSection({
  bookingKey,
  appointmentSlug,
  timeZone,
  documentsVersion,
  onCheckedIn,
}: {
  bookingKey: string;
  appointmentSlug: string;
  timeZone: string;
  documentsVersion: number;
  onCheckedIn: () => void;
}) {
  const { t } = useTranslation();
  const root = useStores();
  const [store] = useState(
    () =>
      new CheckInStore({
        api: root.featureStore(checkInApiOf),
        bookingKey,
        appointmentSlug,
        today: () => localDate(new Date(), timeZone),
        onCheckedIn,
      }),
  );
  useEffect(() => () => store.dispose(), [store]);
  useEffect(() => {
    void store.load();
  }, [store, documentsVersion]);

  if (!store.status?.enabled) return null;
  return (
    <section aria-labelledby="pp-checkin-title" className="pp-checkin">
      <h2 id="pp-checkin-title">{t('checkIn.title')}</h2>
      <CheckInBody store={store} timeZone={timeZone} />
      <CheckInDialogs store={store} />
    </section>
  );
});
