import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ReferrerReportListItem } from '@contract/api/referrer-reports';
import { Button } from '../../components/button';
import { DetailsList } from '../../components/details-list';
import { dateTimeFormat, formatCalendarDate } from '../../platform/dates';
import { useStores } from '../../stores/use-stores';
import type { ReferrerAccessStore } from './referrer-access-store';

const ReportItem = observer(function ReportItem({ report }: { report: ReferrerReportListItem }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const name = `${report.patient.firstName} ${report.patient.lastName}`;
  return (
    <li className="pp-referrer-report">
      {/* A plain link: the quick report is another engineer's page and opens from a fresh load with its imsec. */}
      <a className="pp-referrer-report-link" href={report.quickReportPath}>
        <span className="pp-referrer-report-name">{name}</span>
        <span className="pp-referrer-report-exam">{report.examName}</span>
      </a>
      <DetailsList
        rows={[
          [t('referrerAccess.report.dateOfBirth'), formatCalendarDate(report.dateOfBirth, i18n.locale)],
          [t('referrerAccess.report.clinic'), report.clinicName],
          [t('referrerAccess.report.accession'), report.accessionNumber],
          [
            t('referrerAccess.report.reported'),
            dateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(report.reportedAt)),
          ],
        ]}
      />
      <p className={report.released ? 'pp-referrer-report-state' : 'pp-referrer-report-state pp-referrer-report-pending'}>
        {report.released ? t('referrerAccess.report.released') : t('referrerAccess.report.notReleased')}
      </p>
    </li>
  );
});

/** What the list says when it has no rows: why, in words. */
const EmptyList = observer(function EmptyList({ store }: { store: ReferrerAccessStore }) {
  const { t } = useTranslation();
  if (store.reason === 'no_provider_number')
    return (
      <p className="pp-notice pp-notice-error" data-empty="no_provider_number">
        {t('referrerAccess.noProviderNumber')}
      </p>
    );
  if (store.searched !== '') return <p data-empty="no_match">{t('referrerAccess.noMatch', { search: store.searched })}</p>;
  return <p data-empty="none">{t('referrerAccess.empty')}</p>;
});

/** The referrer's reports, the count (announced politely), and "Show more" while there are more. */
export const ReportList = observer(function ReportList({ store, listId }: { store: ReferrerAccessStore; listId: string }) {
  const { t } = useTranslation();
  const loading = store.loadState === 'loading';
  return (
    <>
      <p role="status" className="pp-referrer-status">
        {loading ? t('referrerAccess.loading') : t('referrerAccess.count', { count: store.reports.length })}
      </p>
      {!loading && store.reports.length === 0 && <EmptyList store={store} />}
      {store.reports.length > 0 && (
        <ul id={listId} className="pp-referrer-reports" aria-busy={loading}>
          {store.reports.map((report) => (
            <ReportItem key={report.reportId} report={report} />
          ))}
        </ul>
      )}
      {store.moreFailed && (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('referrerAccess.moreFailed')}
        </p>
      )}
      {store.nextCursor !== null && !loading && (
        <Button variant="secondary" disabled={store.loadingMore} onClick={() => void store.loadMore()}>
          {t('referrerAccess.more')}
        </Button>
      )}
    </>
  );
});
