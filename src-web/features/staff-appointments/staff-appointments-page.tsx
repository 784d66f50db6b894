import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '../../components/antd-scope';
import { StaffTablePage } from '../../components/staff-table-page';
import { dateTimeFormat } from '../../platform/dates';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { StaffAppointmentsControls } from './staff-appointments-controls';
import type { StaffAppointmentsQuery } from '@contract/api/staff-appointments';
import { staffAppointmentsStoreOf, type StaffAppointmentsStore } from './staff-appointments-store';
import { APPOINTMENTS_TABLE_HEADING_ID, StaffAppointmentsTable } from './staff-appointments-table';
import { useStaffAppointmentsTexts } from './staff-appointments-texts';
import '../../components/staff-queue.css';
import './staff-appointments.css';

/** The clinic and day an address names (/staff/appointments?clinic=newcastle&date=2026-03-18); the server checks them. */
function queryFrom(search: URLSearchParams): StaffAppointmentsQuery {
  const clinic = search.get('clinic');
  const date = search.get('date');
  return { ...(clinic === null || clinic === '' ? {} : { clinic }), ...(date === null || date === '' ? {} : { date }) };
}

/** The day as a heading says it: "Wednesday, 18 March 2026" (a calendar date, never shifted by a zone). */
const spelledDay = (isoDate: string, locale: string): string =>
  dateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );

const Workspace = observer(function Workspace({ store }: { store: StaffAppointmentsStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const data = store.data;
  const [, setSearch] = useSearchParams();
  const clinic = data?.clinic.slug;
  const date = data?.date;
  // The address names the clinic and day shown: a reload or a shared link opens the same list.
  useEffect(() => {
    if (clinic !== undefined && date !== undefined) setSearch({ clinic, date }, { replace: true });
  }, [clinic, date, setSearch]);
  if (data === null) return null;
  const counts = store.counts;
  return (
    <AntdScope>
      <StaffAppointmentsControls store={store} />
      <h2 id={APPOINTMENTS_TABLE_HEADING_ID}>
        {t('staffAppointments.table', { day: spelledDay(data.date, i18n.locale), clinic: data.clinic.name })}
      </h2>
      <p className="pp-staff-appointments-summary" role="status">
        {t('staffAppointments.summary', { ...counts, count: counts.total })}{' '}
        {t('staffAppointments.timesIn', { zone: data.clinic.timeZone })}
      </p>
      <StaffAppointmentsTable store={store} />
    </AntdScope>
  );
});

/** /staff/appointments: the front desk sees who confirmed, who cancelled and whom to call (docs/rules/staff-appointments.md). */
export const StaffAppointmentsPage = observer(function StaffAppointmentsPage() {
  const root = useStores();
  const store = root.featureStore(staffAppointmentsStoreOf);
  const { t } = useTranslation();
  const textsReady = useStaffAppointmentsTexts(root.i18n.i18n, root.i18n.locale);
  const [search] = useSearchParams();
  if (!textsReady) return <LoadingOverlay />;
  return (
    <StaffTablePage
      title={t('staffAppointments.title')}
      intro={t('staffAppointments.intro')}
      className="pp-staff-queue pp-staff-appointments"
      store={store}
      // Arriving: the address's clinic and day, else the server's (the first clinic, tomorrow).
      arrive={() => store.arrive(queryFrom(search))}
      texts={{
        signInNeeded: t('staffAppointments.signInNeeded'),
        signIn: t('staffAppointments.signIn'),
        roleNeeded: t('staffAppointments.roleNeeded'),
        unavailable: t('staffAppointments.unavailable'),
        retry: t('staffAppointments.retry'),
      }}
    >
      <Workspace store={store} />
    </StaffTablePage>
  );
});
