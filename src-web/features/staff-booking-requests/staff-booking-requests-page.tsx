import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { BOOKING_REQUEST_HANDLED_NOTE_MAX, type StaffBookingRequest } from '@contract/api/staff-booking-requests';
import { AntdScope } from '../../components/antd-scope';
import { Page } from '../../components/page';
import { StaffMarkDialog } from '../../components/staff-mark-dialog';
import { StaffTableStates } from '../../components/staff-table-page';
import { useStaffBookingRequestsTexts } from '../../i18n/staff-booking-requests-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { staffBookingRequestsStoreOf, type StaffBookingRequestsStore } from './staff-booking-requests-store';
import { BOOKING_REQUESTS_TABLE_HEADING_ID, StaffBookingRequestsTable } from './staff-booking-requests-table';
import '../../components/staff-queue.css';

/** After a mark; the dialog hands the focus here (its row's button is gone). */
const MarkedNotice = observer(function MarkedNotice({ store }: { store: StaffBookingRequestsStore }) {
  const { t } = useTranslation();
  if (store.markedName === null) return null;
  return (
    <p role="status" className="pp-notice pp-notice-success" tabIndex={-1} data-dialog-return>
      {t('staffBookingRequests.mark.done', { name: store.markedName })}
    </p>
  );
});

const Workspace = observer(function Workspace({ store }: { store: StaffBookingRequestsStore }) {
  const { t } = useTranslation();
  return (
    <AntdScope>
      <MarkedNotice store={store} />
      <h2 id={BOOKING_REQUESTS_TABLE_HEADING_ID}>
        {t('staffBookingRequests.table')}{' '}
        <span className="pp-staff-queue-count">({t('staffBookingRequests.openCount', { count: store.data?.openTotal ?? 0 })})</span>
      </h2>
      <StaffBookingRequestsTable store={store} />
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
    </AntdScope>
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
    <Page title={t('staffBookingRequests.title')} className="pp-staff-queue pp-staff-booking-requests">
      <p>{t('staffBookingRequests.intro')}</p>
      <StaffTableStates
        store={store}
        texts={{
          signInNeeded: t('staffBookingRequests.signInNeeded'),
          signIn: t('staffBookingRequests.signIn'),
          roleNeeded: t('staffBookingRequests.roleNeeded'),
          unavailable: t('staffBookingRequests.unavailable'),
          retry: t('staffBookingRequests.retry'),
        }}
      >
        <Workspace store={store} />
      </StaffTableStates>
    </Page>
  );
});
