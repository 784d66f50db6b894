import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '../../components/antd-scope';
import { StaffTablePage } from '../../components/staff-table-page';
import { useStaffFeedbackTexts } from './staff-feedback-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { StaffFeedbackFilters } from './staff-feedback-filters';
import { staffFeedbackStoreOf, type StaffFeedbackStore } from './staff-feedback-store';
import { StaffFeedbackSummaries } from './staff-feedback-summary';
import { FEEDBACK_TABLE_HEADING_ID, StaffFeedbackTable } from './staff-feedback-table';
import './staff-feedback.css';

const Workspace = observer(function Workspace({ store }: { store: StaffFeedbackStore }) {
  const { t } = useTranslation();
  const total = store.data?.total ?? 0;
  return (
    <AntdScope>
      <StaffFeedbackFilters store={store} />
      <h2 id={FEEDBACK_TABLE_HEADING_ID}>
        {t('staffFeedback.table')} <span className="pp-staff-feedback-count">({t('staffFeedback.count', { count: total })})</span>
      </h2>
      <StaffFeedbackTable store={store} />
      <StaffFeedbackSummaries store={store} />
    </AntdScope>
  );
});

/** /staff/referrer-feedback: staff and admins read, filter, sort and export referrers' report feedback. */
export const StaffFeedbackPage = observer(function StaffFeedbackPage() {
  const root = useStores();
  const store = root.featureStore(staffFeedbackStoreOf);
  const { t } = useTranslation();
  const textsReady = useStaffFeedbackTexts(root.i18n.i18n, root.i18n.locale);
  if (!textsReady) return <LoadingOverlay />;
  return (
    <StaffTablePage
      title={t('staffFeedback.title')}
      intro={t('staffFeedback.intro')}
      className="pp-staff-feedback"
      store={store}
      arrive={() => store.load(1)}
      texts={{
        signInNeeded: t('staffFeedback.signInNeeded'),
        signIn: t('staffFeedback.signIn'),
        roleNeeded: t('staffFeedback.roleNeeded'),
        unavailable:
          store.filterProblem === null ? t('staffFeedback.unavailable') : t('staffFeedback.badFilter', { reason: store.filterProblem }),
        retry: t('staffFeedback.retry'),
      }}
    >
      <Workspace store={store} />
    </StaffTablePage>
  );
});
