import Table, { type TableProps } from 'antd/es/table';
import type { SortOrder as AntdSortOrder } from 'antd/es/table/interface';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ReferrerReportListItem, ReferrerReportSort } from '@contract/api/referrer-reports';
import { formatCalendarDate } from '../../platform/dates';
import { useStores } from '../../stores/use-stores';
import { formatReportedAt, listToQuickReport } from './report-dates';
import type { ReferrerAccessStore } from './referrer-access-store';

type Columns = NonNullable<TableProps<ReferrerReportListItem>['columns']>;

/** Names and exams sort A to Z first; the delivery date newest first. Repeating the first keeps antd from a third "unsorted" state. */
const FORWARD: AntdSortOrder[] = ['ascend', 'descend', 'ascend'];
const NEWEST_FIRST: AntdSortOrder[] = ['descend', 'ascend', 'descend'];

/** Columns a phone leaves out (referrer-access.css, below 768 px): plain CSS, so the table never waits for a media query. */
const WIDE_ONLY = 'pp-referrer-wide-only';

/** The patient's name (the link to the quick report) and the unread marker; on a phone also the exam, date of birth and release state. */
const PatientCell = observer(function PatientCell({ report }: { report: ReferrerReportListItem }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  return (
    <div className="pp-referrer-patient">
      {/* A plain link: the quick report opens from a fresh load with its imsec. */}
      <a className="pp-referrer-report-link" href={listToQuickReport(report.quickReportPath)}>
        {report.patient.lastName}, {report.patient.firstName}
      </a>
      {report.unread && (
        <span className="pp-referrer-unread" data-testid="unread-marker">
          {t('referrerAccess.report.unread')}
        </span>
      )}
      {/* Only below the md width, where the exam and date-of-birth columns are hidden. */}
      <span className="pp-referrer-phone-only">
        {report.examName} · {t('referrerAccess.report.born', { date: formatCalendarDate(report.dateOfBirth, i18n.locale) })} ·{' '}
        <span className={report.released ? undefined : 'pp-referrer-report-pending'}>
          {report.released ? t('referrerAccess.report.released') : t('referrerAccess.report.notReleased')}
        </span>
      </span>
    </div>
  );
});

/**
 * The referrer's reports as a compact table (antd Table, themed by the page's AntdScope), sorted
 * by the server: the column headers set the store's sort. On a phone only the patient (with the
 * exam and date of birth beneath) and the date stay, so nothing scrolls sideways.
 */
export const ReportTable = observer(function ReportTable({ store, listId }: { store: ReferrerAccessStore; listId: string }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const orderOf = (sort: ReferrerReportSort): AntdSortOrder => (store.sort !== sort ? null : store.order === 'asc' ? 'ascend' : 'descend');
  const columns: Columns = [
    {
      key: 'patient',
      title: t('referrerAccess.report.patient'),
      sorter: true,
      sortOrder: orderOf('patient'),
      sortDirections: FORWARD,
      render: (_, report) => <PatientCell report={report} />,
    },
    {
      key: 'dateOfBirth',
      title: t('referrerAccess.report.dateOfBirth'),
      sorter: true,
      sortOrder: orderOf('dateOfBirth'),
      sortDirections: FORWARD,
      className: WIDE_ONLY,
      render: (_, report) => <time dateTime={report.dateOfBirth}>{formatCalendarDate(report.dateOfBirth, i18n.locale)}</time>,
    },
    {
      key: 'exam',
      title: t('referrerAccess.report.exam'),
      sorter: true,
      sortOrder: orderOf('exam'),
      sortDirections: FORWARD,
      className: WIDE_ONLY,
      render: (_, report) => (
        <>
          <span className="pp-referrer-exam">{report.examName}</span>
          <span className="pp-referrer-secondary">
            {report.clinicName} · {report.accessionNumber}
          </span>
        </>
      ),
    },
    {
      key: 'date',
      title: t('referrerAccess.report.reported'),
      sorter: true,
      sortOrder: orderOf('date'),
      sortDirections: NEWEST_FIRST,
      render: (_, report) => <time dateTime={report.reportedAt}>{formatReportedAt(report.reportedAt, i18n.locale)}</time>,
    },
    {
      key: 'status',
      title: t('referrerAccess.report.status'),
      sorter: true,
      sortOrder: orderOf('status'),
      sortDirections: FORWARD,
      className: WIDE_ONLY,
      render: (_, report) => (
        <span className={report.released ? 'pp-referrer-report-state' : 'pp-referrer-report-state pp-referrer-report-pending'}>
          {report.released ? t('referrerAccess.report.released') : t('referrerAccess.report.notReleased')}
        </span>
      ),
    },
  ];
  return (
    <Table<ReferrerReportListItem>
      id={listId}
      className="pp-referrer-table"
      size="small"
      rowKey="reportId"
      columns={columns}
      dataSource={store.reports}
      pagination={false}
      loading={store.loadState === 'loading'}
      rowClassName={(report) => (report.unread ? 'pp-referrer-row-unread' : '')}
      showSorterTooltip={false}
      onChange={(_pagination, _filters, sorter) => {
        const one = Array.isArray(sorter) ? sorter[0] : sorter;
        const key = (one?.order ? one.columnKey : null) as ReferrerReportSort | null;
        store.setSort(key ?? null, one?.order === 'ascend' ? 'asc' : one?.order === 'descend' ? 'desc' : null);
      }}
    />
  );
});
