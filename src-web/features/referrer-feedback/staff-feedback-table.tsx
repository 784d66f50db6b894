import Table, { type ColumnsType as TableColumnsType, type TableProps } from 'antd/es/table';
import type { SortOrder } from 'antd/es/table/interface';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { FeedbackEntry, FeedbackSort } from '@contract/api/referrer-feedback';
import { useStores } from '../../stores/use-stores';
import { answerWords, formatGivenAt, type QuestionLabels } from './staff-feedback-format';
import { STAFF_FEEDBACK_PAGE_SIZE, type StaffFeedbackStore } from './staff-feedback-store';
import { namedTable } from '../../components/named-table';

export const FEEDBACK_TABLE_HEADING_ID = 'pp-staff-feedback-table-heading';

const NamedTable = namedTable(FEEDBACK_TABLE_HEADING_ID);

/** The comments: every answer that is not a score, under its question's title when there are several. */
function Comments({ item, labels, rating }: { item: FeedbackEntry; labels: QuestionLabels; rating: ReadonlySet<string> }) {
  const answers = Object.entries(item.answers)
    .filter(([question]) => !rating.has(question))
    .map(([question, answer]) => [labels.get(question)?.title ?? question, answerWords(labels.get(question), answer)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== null);
  if (answers.length === 0) return null;
  if (answers.length === 1) return <span className="pp-staff-feedback-comment">{answers[0]?.[1]}</span>;
  return (
    <dl className="pp-staff-feedback-comments">
      {answers.map(([title, words]) => (
        <div key={title}>
          <dt>{title}</dt>
          <dd>{words}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The feedback of the filter, a page at a time: one column per score under the questionnaire's
 * own question, the rest of the answers as comments. Sorting and paging ask the server.
 */
export const StaffFeedbackTable = observer(function StaffFeedbackTable({ store }: { store: StaffFeedbackStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  const data = store.data;
  if (data === null) return null;
  const labels: QuestionLabels = new Map(data.questions.map((question) => [question.name, question]));
  const ratings = data.questions.filter((question) => question.rating);
  const ratingNames = new Set(ratings.map((question) => question.name));
  const sortOrder = (key: FeedbackSort): SortOrder =>
    store.view.sort === key ? (store.view.order === 'asc' ? 'ascend' : 'descend') : null;
  const none = t('staffFeedback.noAnswer');

  const columns: TableColumnsType<FeedbackEntry> = [
    {
      key: 'date',
      title: t('staffFeedback.column.date'),
      dataIndex: 'createdAt',
      sorter: true,
      sortOrder: sortOrder('date'),
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (createdAt: string) => <time dateTime={createdAt}>{formatGivenAt(createdAt, i18n.locale)}</time>,
    },
    {
      key: 'referrer',
      title: t('staffFeedback.column.referrer'),
      sorter: true,
      sortOrder: sortOrder('referrer'),
      sortDirections: ['ascend', 'descend', 'ascend'],
      render: (_: unknown, item) => (
        <>
          <span className="pp-staff-feedback-strong">{item.referrerName}</span>
          {item.referrerProviderNumber !== null && <span className="pp-staff-feedback-minor">{item.referrerProviderNumber}</span>}
        </>
      ),
    },
    {
      key: 'patientExam',
      title: t('staffFeedback.column.patientExam'),
      render: (_: unknown, item) => (
        <>
          <span className="pp-staff-feedback-strong">{item.patientName ?? none}</span>
          <span>{item.examName ?? none}</span>
          <span className="pp-staff-feedback-minor">{item.accessionNumber}</span>
        </>
      ),
    },
    {
      key: 'modality',
      title: t('staffFeedback.column.modality'),
      render: (_: unknown, item) => item.modalityName ?? item.modalityCode ?? none,
    },
    ...ratings.map((question): TableColumnsType<FeedbackEntry>[number] => ({
      key: `score:${question.name}`,
      title: question.title,
      align: 'center',
      className: 'pp-staff-feedback-score',
      sorter: true,
      sortOrder: sortOrder(`score:${question.name}`),
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (_: unknown, item) => answerWords(question, item.answers[question.name]) ?? none,
    })),
    {
      key: 'comments',
      title: t('staffFeedback.column.comments'),
      render: (_: unknown, item) => <Comments item={item} labels={labels} rating={ratingNames} />,
    },
  ];

  const onChange: TableProps<FeedbackEntry>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'paginate') return void store.load(pagination.current ?? 1);
    if (extra.action !== 'sort' || Array.isArray(sorter)) return;
    const key = typeof sorter.columnKey === 'string' ? sorter.columnKey : 'date';
    // A sort turned off goes back to the newest first.
    if (sorter.order === undefined || sorter.order === null) return store.setView({ sort: 'date', order: 'desc' });
    store.setView({ sort: key as FeedbackSort, order: sorter.order === 'ascend' ? 'asc' : 'desc' });
  };

  return (
    <Table<FeedbackEntry>
      className="pp-staff-feedback-table"
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data.items}
      loading={store.loadState === 'loading'}
      components={{ table: NamedTable }}
      locale={{ emptyText: t('staffFeedback.empty') }}
      showSorterTooltip={false}
      onChange={onChange}
      pagination={{
        current: data.page,
        pageSize: STAFF_FEEDBACK_PAGE_SIZE,
        total: data.total,
        showSizeChanger: false,
        hideOnSinglePage: false,
        showTotal: (total, [start, end]) => t('staffFeedback.range', { start, end, total }),
      }}
    />
  );
});
