import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '../../components/antd-scope';
import { Page } from '../../components/page';
import { StaffTableStates } from '../../components/staff-table-page';
import { useStaffCallbacksTexts } from '../../i18n/staff-callbacks-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { MarkCalledDialog } from './mark-called-dialog';
import { staffCallbacksStoreOf, type StaffCallbacksStore } from './staff-callbacks-store';
import { CALLBACKS_TABLE_HEADING_ID, StaffCallbacksTable } from './staff-callbacks-table';
import '../../components/staff-queue.css';

/** After a mark; the dialog hands the focus here (its row's button is gone). */
const MarkedNotice = observer(function MarkedNotice({ store }: { store: StaffCallbacksStore }) {
  const { t } = useTranslation();
  if (store.markedName === null) return null;
  return (
    <p role="status" className="pp-notice pp-notice-success" tabIndex={-1} data-dialog-return>
      {t('staffCallbacks.mark.done', { name: store.markedName })}
    </p>
  );
});

const Workspace = observer(function Workspace({ store }: { store: StaffCallbacksStore }) {
  const { t } = useTranslation();
  return (
    <AntdScope>
      <MarkedNotice store={store} />
      <h2 id={CALLBACKS_TABLE_HEADING_ID}>
        {t('staffCallbacks.table')}{' '}
        <span className="pp-staff-queue-count">({t('staffCallbacks.openCount', { count: store.data?.openTotal ?? 0 })})</span>
      </h2>
      <StaffCallbacksTable store={store} />
      <MarkCalledDialog store={store} />
    </AntdScope>
  );
});

/** /staff/callbacks: staff and admins call back patients who asked, and mark each one called (docs/rules/callbacks.md#the-staff-queue). */
export const StaffCallbacksPage = observer(function StaffCallbacksPage() {
  const root = useStores();
  const store = root.featureStore(staffCallbacksStoreOf);
  const { t } = useTranslation();
  const textsReady = useStaffCallbacksTexts(root.i18n.i18n, root.i18n.locale);
  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('staffCallbacks.title')} className="pp-staff-queue pp-staff-callbacks">
      <p>{t('staffCallbacks.intro')}</p>
      <StaffTableStates
        store={store}
        texts={{
          signInNeeded: t('staffCallbacks.signInNeeded'),
          signIn: t('staffCallbacks.signIn'),
          roleNeeded: t('staffCallbacks.roleNeeded'),
          unavailable: t('staffCallbacks.unavailable'),
          retry: t('staffCallbacks.retry'),
        }}
      >
        <Workspace store={store} />
      </StaffTableStates>
    </Page>
  );
});
