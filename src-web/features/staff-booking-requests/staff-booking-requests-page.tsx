import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { BOOKING_REQUEST_HANDLED_NOTE_MAX, type StaffBookingRequest } from '@contract/api/staff-booking-requests';
import { StaffMarkDialog } from '../../components/staff-mark-dialog';
import { StaffQueueWorkspace } from '../../components/staff-queue-workspace';
import { StaffTablePage } from '../../components/staff-table-page';
import { useStaffBookingRequestsTexts } from './staff-booking-requests-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { staffBookingRequestsStoreOf, type StaffBookingRequestsStore } from './staff-booking-requests-store';
import { BOOKING_REQUESTS_TABLE_HEADING_ID, StaffBookingRequestsTable } from './staff-booking-requests-table';

/** "Mark handled" with an optional note (what was arranged); the note is kept on the request. */
const MarkHandledDialog = observer(function MarkHandledDialog({ store }: { store: StaffBookingRequestsStore }) {
  const { t } = useTranslation();
  return (
    <StaffMarkDialog<StaffBookingRequest>
      store={store}
      noteMax={BOOKING_REQUEST_HANDLED_NOTE_MAX}
      texts={(item) => {
        const name = item.patient.name;
        return {
          title: t('staffBookingRequests.mark.title', { name }),
          text: t('staffBookingRequests.mark.text', { name, exams: item.exams.join(', ') }),
          note: t('staffBookingRequests.mark.note'),
          counter: (used, max) => t('staffBookingRequests.mark.counter', { used, max }),
          cancel: t('staffBookingRequests.mark.cancel'),
          confirm: t('staffBookingRequests.mark.confirm'),
          saving: t('staffBookingRequests.mark.saving'),
          unavailable: t('staffBookingRequests.mark.unavailable'),
        };
      }}
    />
  );
});

/** /staff/booking-requests: the booking team arranges what patients asked for and marks each request handled (docs/rules/booking.md#the-staff-queue). */
export const StaffBookingRequestsPage = observer(function StaffBookingRequestsPage() {
  const root = useStores();
  const store = root.featureStore(staffBookingRequestsStoreOf);
  const { t } = useTranslation();
  const textsReady = useStaffBookingRequestsTexts(root.i18n.i18n, root.i18n.locale);
  if (!textsReady) return <LoadingOverlay />;
  return (
    <StaffTablePage
      title={t('staffBookingRequests.title')}
      intro={t('staffBookingRequests.intro')}
      className="pp-staff-queue pp-staff-booking-requests"
      store={store}
      texts={{
        signInNeeded: t('staffBookingRequests.signInNeeded'),
        signIn: t('staffBookingRequests.signIn'),
        roleNeeded: t('staffBookingRequests.roleNeeded'),
        unavailable: t('staffBookingRequests.unavailable'),
        retry: t('staffBookingRequests.retry'),
      }}
    >
      <StaffQueueWorkspace
        store={store}
        headingId={BOOKING_REQUESTS_TABLE_HEADING_ID}
        heading={t('staffBookingRequests.table')}
        openCount={(count) => t('staffBookingRequests.openCount', { count })}
        done={(name) => t('staffBookingRequests.mark.done', { name })}
      >
        <StaffBookingRequestsTable store={store} />
        <MarkHandledDialog store={store} />
      </StaffQueueWorkspace>
    </StaffTablePage>
  );
});
