import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { StaffQueueWorkspace } from '../../components/staff-queue-workspace';
import { StaffTablePage } from '../../components/staff-table-page';
import { useStaffCallbacksTexts } from './staff-callbacks-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { MarkCalledDialog } from './mark-called-dialog';
import { staffCallbacksStoreOf } from './staff-callbacks-store';
import { CALLBACKS_TABLE_HEADING_ID, StaffCallbacksTable } from './staff-callbacks-table';

/** /staff/callbacks: staff and admins call back patients who asked, and mark each one called (docs/rules/callbacks.md#the-staff-queue). */
export const StaffCallbacksPage = observer(function StaffCallbacksPage() {
  const root = useStores();
  const store = root.featureStore(staffCallbacksStoreOf);
  const { t } = useTranslation();
  const textsReady = useStaffCallbacksTexts(root.i18n.i18n, root.i18n.locale);
  if (!textsReady) return <LoadingOverlay />;
  return (
    <StaffTablePage
      title={t('staffCallbacks.title')}
      intro={t('staffCallbacks.intro')}
      className="pp-staff-queue pp-staff-callbacks"
      store={store}
      texts={{
        signInNeeded: t('staffCallbacks.signInNeeded'),
        signIn: t('staffCallbacks.signIn'),
        roleNeeded: t('staffCallbacks.roleNeeded'),
        unavailable: t('staffCallbacks.unavailable'),
        retry: t('staffCallbacks.retry'),
      }}
    >
      <StaffQueueWorkspace
        store={store}
        headingId={CALLBACKS_TABLE_HEADING_ID}
        heading={t('staffCallbacks.table')}
        openCount={(count) => t('staffCallbacks.openCount', { count })}
        done={(name) => t('staffCallbacks.mark.done', { name })}
      >
        <StaffCallbacksTable store={store} />
        <MarkCalledDialog store={store} />
      </StaffQueueWorkspace>
    </StaffTablePage>
  );
});
