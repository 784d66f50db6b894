import Table, { type ColumnsType as TableColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedbackQuestionLabel, FeedbackSummaryRow } from '@contract/api/referrer-feedback';
import { namedTable } from '../../components/named-table';
import type { StaffFeedbackStore } from './staff-feedback-store';

function SummaryTable({ heading, rows, ratings }: { heading: string; rows: FeedbackSummaryRow[]; ratings: FeedbackQuestionLabel[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  const NamedTable = useMemo(() => namedTable(headingId), [headingId]);
  const none = t('staffFeedback.noAnswer');
  const columns: TableColumnsType<FeedbackSummaryRow> = [
    {
      key: 'group',
      title: t('staffFeedback.group'),
      render: (_: unknown, row) => (row.label === '' ? (row.key === '' ? t('staffFeedback.noModality') : row.key) : row.label),
    },
    { key: 'count', title: t('staffFeedback.groupCount'), dataIndex: 'count', align: 'right' },
    // Each score's average under the questionnaire's own question.
    ...ratings.map((question): TableColumnsType<FeedbackSummaryRow>[number] => ({
      key: question.name,
      title: question.title,
      align: 'right',
      render: (_: unknown, row) => row.averages[question.name] ?? none,
    })),
  ];
  return (
    <div className="pp-staff-feedback-summary">
      <h3 id={headingId}>{heading}</h3>
      <Table<FeedbackSummaryRow>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        components={{ table: NamedTable }}
        locale={{ emptyText: t('staffFeedback.empty') }}
      />
    </div>
  );
}

/** Per referrer and per modality: how many feedbacks the filter keeps and each score's average. */
export const StaffFeedbackSummaries = observer(function StaffFeedbackSummaries({ store }: { store: StaffFeedbackStore }) {
  const { t } = useTranslation();
  const data = store.data;
  if (data === null) return null;
  const ratings = data.questions.filter((question) => question.rating);
  return (
    <section className="pp-staff-feedback-summaries" aria-labelledby="pp-staff-feedback-summaries-heading">
      <h2 id="pp-staff-feedback-summaries-heading">{t('staffFeedback.summaries')}</h2>
      <div className="pp-staff-feedback-summary-grid">
        <SummaryTable heading={t('staffFeedback.byReferrer')} rows={data.byReferrer} ratings={ratings} />
        <SummaryTable heading={t('staffFeedback.byModality')} rows={data.byModality} ratings={ratings} />
      </div>
    </section>
  );
});
