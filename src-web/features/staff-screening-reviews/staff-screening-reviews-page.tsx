import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { SCREENING_REVIEW_NOTE_MAX, type ScreeningReview } from '@contract/api/screening-reviews';
import { StaffMarkDialog } from '../../components/staff-mark-dialog';
import { StaffQueueWorkspace } from '../../components/staff-queue-workspace';
import { StaffTablePage } from '../../components/staff-table-page';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { staffScreeningReviewsStoreOf, type StaffScreeningReviewsStore } from './staff-screening-reviews-store';
import { SCREENING_REVIEWS_TABLE_HEADING_ID, StaffScreeningReviewsTable } from './staff-screening-reviews-table';
import { useStaffScreeningReviewsTexts } from './staff-screening-reviews-texts';
import './staff-screening-reviews.css';

/** Approve (optional note) or decline (a note the patient reads): one dialog, worded by the store's markAction. */
const DecisionDialog = observer(function DecisionDialog({ store }: { store: StaffScreeningReviewsStore }) {
  const { t } = useTranslation();
  const declining = store.markAction === 'decline';
  return (
    <StaffMarkDialog<ScreeningReview>
      store={store}
      noteMax={SCREENING_REVIEW_NOTE_MAX}
      texts={(item) => {
        const name = item.patient.name;
        const exams = item.exams.join(', ');
        return {
          title: declining ? t('staffScreeningReviews.decline.title', { name }) : t('staffScreeningReviews.approve.title', { name }),
          text: declining
            ? t('staffScreeningReviews.decline.text', { name, exams })
            : t('staffScreeningReviews.approve.text', { name, exams }),
          note: declining ? t('staffScreeningReviews.decline.note') : t('staffScreeningReviews.approve.note'),
          counter: (used, max) => t('staffScreeningReviews.counter', { used, max }),
          cancel: t('staffScreeningReviews.cancel'),
          confirm: declining ? t('staffScreeningReviews.decline.confirm') : t('staffScreeningReviews.approve.confirm'),
          saving: t('staffScreeningReviews.saving'),
          unavailable: t('staffScreeningReviews.decisionUnavailable'),
        };
      }}
    />
  );
});

/** /staff/screening-reviews: radiographers judge the screenings held for review (docs/rules/screening-review.md#the-staff-queue). */
export const StaffScreeningReviewsPage = observer(function StaffScreeningReviewsPage() {
  const root = useStores();
  const store = root.featureStore(staffScreeningReviewsStoreOf);
  const { t } = useTranslation();
  const textsReady = useStaffScreeningReviewsTexts(root.i18n.i18n, root.i18n.locale);
  if (!textsReady) return <LoadingOverlay />;
  return (
    <StaffTablePage
      title={t('staffScreeningReviews.title')}
      intro={t('staffScreeningReviews.intro')}
      className="pp-staff-queue pp-staff-screening-reviews"
      store={store}
      texts={{
        signInNeeded: t('staffScreeningReviews.signInNeeded'),
        signIn: t('staffScreeningReviews.signIn'),
        roleNeeded: t('staffScreeningReviews.roleNeeded'),
        unavailable: t('staffScreeningReviews.unavailable'),
        retry: t('staffScreeningReviews.retry'),
      }}
    >
      <StaffQueueWorkspace
        store={store}
        headingId={SCREENING_REVIEWS_TABLE_HEADING_ID}
        heading={t('staffScreeningReviews.table')}
        openCount={(count) => t('staffScreeningReviews.openCount', { count })}
        done={(name) => t('staffScreeningReviews.done', { name })}
      >
        <StaffScreeningReviewsTable store={store} />
        <DecisionDialog store={store} />
      </StaffQueueWorkspace>
    </StaffTablePage>
  );
});
