import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { DialogReturnNotice } from '../../components/dialog-return-notice';
import { ConfirmDialog } from '../../components/modal-dialog';
import { Page } from '../../components/page';
import { StaffSignInNotice } from '../../components/staff-sign-in-action';
import { PageLoadState } from '../../components/page-load-state';
import { useStaffKiosksTexts } from './staff-kiosks-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { AddKioskForm } from './add-kiosk-form';
import { IssuedCode } from './issued-code';
import { KioskList } from './kiosk-list';
import { staffKiosksStoreOf, type StaffKiosksStore } from './staff-kiosks-store';
import './staff-kiosks.css';

const Problem = observer(function Problem({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const problem = store.problem;
  switch (problem?.kind) {
    case undefined:
      return null;
    case 'signInNeeded':
      return (
        <StaffSignInNotice text={t('staffKiosks.signInNeeded')} label={t('staffKiosks.signIn')} onSignedIn={() => void store.load()} />
      );
    case 'roleNeeded':
      // Said in our words (the role by name), with the server's own explanation beside it.
      return (
        <div role="alert" className="pp-notice pp-notice-error" data-problem="roleNeeded">
          <p>{t('staffKiosks.roleNeeded')}</p>
          {problem.message && <p>{problem.message}</p>}
        </div>
      );
    case 'unavailable':
      return (
        <PageLoadState
          failed
          errorText={t('staffKiosks.unavailable')}
          retryText={t('staffKiosks.retry')}
          onRetry={() => void store.load()}
        />
      );
  }
});

const ActionProblem = observer(function ActionProblem({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const problem = store.actionProblem;
  if (problem === null) return null;
  return (
    <p role="alert" className="pp-notice pp-notice-error" data-problem="action">
      {problem.kind === 'server' ? problem.message : t('staffKiosks.actionUnavailable')}
    </p>
  );
});

/** After a revocation; the dialog hands the focus here (its Revoke button is gone). */
const RevokedNotice = observer(function RevokedNotice({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  if (store.revokedName === null) return null;
  return <DialogReturnNotice>{t('staffKiosks.revoke.done', { name: store.revokedName })}</DialogReturnNotice>;
});

const RevokeConfirmation = observer(function RevokeConfirmation({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const kiosk = store.confirmingRevoke;
  if (kiosk === null) return null;
  return (
    <ConfirmDialog
      danger
      busy={store.busy}
      title={t('staffKiosks.revoke.title', { name: kiosk.name })}
      text={t('staffKiosks.revoke.text')}
      yes={t('staffKiosks.revoke.yes')}
      no={t('staffKiosks.revoke.no')}
      onYes={() => void store.confirmRevoke()}
      onNo={() => store.cancelRevoke()}
    />
  );
});

/** /staff/kiosks: kiosk administrators manage the clinic lobby kiosks (docs/rules/kiosk.md#enrollment). */
export const StaffKiosksPage = observer(function StaffKiosksPage() {
  const root = useStores();
  const store = root.featureStore(staffKiosksStoreOf);
  const { t } = useTranslation();
  const textsReady = useStaffKiosksTexts(root.i18n.i18n, root.i18n.locale);
  // Signing in or out (here or in the navigation) asks the server again.
  const staffUserId = root.staff.user?.userId ?? null;

  useEffect(() => {
    void store.load();
    return () => store.dispose();
  }, [store, staffUserId]);

  useEffect(() => {
    void root.content.loadClinics();
  }, [root]);

  if (!textsReady) return <LoadingOverlay />;
  // The list waits for the clinics' names (a failed clinic list only leaves the groups named by slug).
  const clinicsSettled = root.content.clinicsState === 'loaded' || root.content.clinicsState === 'error';
  const listed = store.loadState === 'loaded' || (store.loadState === 'loading' && store.kiosks.length > 0);
  const ready = listed && clinicsSettled;
  return (
    <Page title={t('staffKiosks.title')} className="pp-staff-kiosks">
      <p>{t('staffKiosks.intro')}</p>
      {store.loadState !== 'error' && !ready && <PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />}
      <Problem store={store} />
      {ready && (
        <>
          <IssuedCode store={store} />
          <ActionProblem store={store} />
          <RevokedNotice store={store} />
          <AddKioskForm store={store} />
          <KioskList store={store} />
          <RevokeConfirmation store={store} />
        </>
      )}
    </Page>
  );
});
