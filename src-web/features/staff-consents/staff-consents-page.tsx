import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { StaffConsent } from '@contract/api/staff-consents';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { StaffSignInNotice } from '../../components/staff-sign-in-action';
import { useStaffTexts } from '../../i18n/staff-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { staffConsentsStoreOf, type StaffConsentsStore } from './staff-consents-store';
import './staff-consents.css';

const Signature = observer(function Signature({ store, form }: { store: StaffConsentsStore; form: StaffConsent }) {
  const { t } = useTranslation();
  if (!form.drawn) return <p className="pp-staff-consent-typed">{t('staffConsents.typedOnly')}</p>;
  const image = store.images.get(form.id);
  if (image?.state === 'ready') {
    return (
      <img
        className="pp-staff-consent-signature"
        src={image.url}
        alt={t('staffConsents.signatureAlt', { name: form.signedName ?? '', title: form.title })}
      />
    );
  }
  if (image?.state === 'failed') return <p className="pp-notice pp-notice-error">{t('staffConsents.signatureFailed')}</p>;
  return <p aria-busy="true">{t('staffConsents.signatureLoading')}</p>;
});

const ConsentList = observer(function ConsentList({ store }: { store: StaffConsentsStore }) {
  const { t, i18n } = useTranslation();
  const consents = store.data?.consents ?? [];
  if (consents.length === 0) return <p>{t('staffConsents.none')}</p>;
  const when = (instant: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(instant));
  return (
    <ul className="pp-staff-consents">
      {consents.map((form) => (
        <li key={form.id} className="pp-staff-consent">
          <h2>{form.title}</h2>
          {form.signed && form.signedAt !== null ? (
            <>
              <p>
                {t('staffConsents.signedBy', { name: form.signedName ?? '' })} · <time dateTime={form.signedAt}>{when(form.signedAt)}</time>
              </p>
              <Signature store={store} form={form} />
            </>
          ) : (
            <p className="pp-staff-consent-unsigned">{t('staffConsents.unsigned')}</p>
          )}
        </li>
      ))}
    </ul>
  );
});

/** /staff/appointments/:bookingKey/consents: staff and admins see a booking's consent forms and the signatures drawn at the kiosk. */
export const StaffConsentsPage = observer(function StaffConsentsPage() {
  const root = useStores();
  const store = root.featureStore(staffConsentsStoreOf);
  const { t } = useTranslation();
  const { bookingKey = '' } = useParams();
  const textsReady = useStaffTexts(root.i18n.i18n, root.i18n.locale);
  // Signing in or out asks the server again.
  const staffUserId = root.staff.user?.userId ?? null;

  useEffect(() => {
    void store.load(bookingKey);
    return () => store.dispose();
  }, [store, bookingKey, staffUserId]);

  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('staffConsents.title')} className="pp-staff-consents-page">
      {store.problem === 'signInNeeded' ? (
        <StaffSignInNotice text={t('staffConsents.signInNeeded')} label={t('staffConsents.signIn')} onSignedIn={() => void store.load()} />
      ) : store.problem === 'roleNeeded' ? (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('staffConsents.roleNeeded')}
        </p>
      ) : store.problem === 'notFound' ? (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('staffConsents.notFound')}
        </p>
      ) : store.problem === 'unavailable' ? (
        <PageLoadState
          failed
          errorText={t('staffConsents.unavailable')}
          retryText={t('staffConsents.retry')}
          onRetry={() => void store.load()}
        />
      ) : store.loadState === 'loaded' ? (
        <ConsentList store={store} />
      ) : (
        <PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />
      )}
    </Page>
  );
});
