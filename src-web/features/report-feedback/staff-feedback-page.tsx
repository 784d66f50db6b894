import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { FeedbackQuestionLabel, FeedbackSummaryRow } from '@contract/api/referrer-feedback';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { StaffSignInNotice } from '../../components/staff-sign-in-action';
import { useReportFeedbackTexts } from '../../i18n/report-feedback-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { staffFeedbackStoreOf, type StaffFeedbackStore } from './staff-feedback-store';

type QuestionLabels = ReadonlyMap<string, FeedbackQuestionLabel>;

/** A question and its answer as the referrer read them: "How clear was the report? 4.5", "Comment: Good". */
function answerText(labels: QuestionLabels, question: string, answer: unknown): string {
  const label = labels.get(question);
  const title = label?.title ?? question;
  const value =
    answer === null
      ? '–'
      : typeof answer === 'string' || typeof answer === 'number'
        ? (label?.choices[String(answer)] ?? String(answer))
        : JSON.stringify(answer);
  return `${title}${/[?:]$/.test(title) ? '' : ':'} ${value}`;
}

/** The rating averages of a summary row, each under its question's title. */
const averagesText = (labels: QuestionLabels, row: FeedbackSummaryRow): string =>
  Object.entries(row.averages)
    .map(([question, average]) => answerText(labels, question, average))
    .join(' · ');

function SummaryTable({ caption, rows, labels }: { caption: string; rows: FeedbackSummaryRow[]; labels: QuestionLabels }) {
  const { t } = useTranslation();
  return (
    <table className="pp-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('reportFeedback.staff.group')}</th>
          <th scope="col">{t('reportFeedback.staff.count')}</th>
          <th scope="col">{t('reportFeedback.staff.averages')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label === '' ? row.key : row.label}</th>
            <td>{row.count}</td>
            <td>{averagesText(labels, row)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const Feedback = observer(function Feedback({ store }: { store: StaffFeedbackStore }) {
  const { t } = useTranslation();
  const data = store.data;
  if (data === null) return null;
  const labels: QuestionLabels = new Map(data.questions.map((question) => [question.name, question]));
  return (
    <>
      <SummaryTable caption={t('reportFeedback.staff.byReferrer')} rows={data.byReferrer} labels={labels} />
      <SummaryTable caption={t('reportFeedback.staff.byModality')} rows={data.byModality} labels={labels} />
      <h2>{t('reportFeedback.staff.list', { count: data.total })}</h2>
      <ul className="pp-staff-feedback-list">
        {data.items.map((item) => (
          <li key={item.id}>
            <p>
              <strong>{item.accessionNumber}</strong> · {item.referrerName} · {item.examName ?? item.modalityCode ?? ''} ·{' '}
              <time dateTime={item.createdAt}>{new Date(item.createdAt).toLocaleString()}</time>
            </p>
            <p>
              {Object.entries(item.answers)
                .map(([question, answer]) => answerText(labels, question, answer))
                .join(' · ')}
            </p>
          </li>
        ))}
      </ul>
      {store.pages > 1 && (
        <div className="pp-button-row">
          <Button variant="secondary" disabled={store.page <= 1} onClick={() => void store.load(store.page - 1)}>
            {t('reportFeedback.staff.previous')}
          </Button>
          <span>{t('reportFeedback.staff.page', { page: store.page, pages: store.pages })}</span>
          <Button variant="secondary" disabled={store.page >= store.pages} onClick={() => void store.load(store.page + 1)}>
            {t('reportFeedback.staff.next')}
          </Button>
        </div>
      )}
    </>
  );
});

/** /staff/referrer-feedback: staff and admins read referrers' report feedback and its summary. */
export const StaffFeedbackPage = observer(function StaffFeedbackPage() {
  const root = useStores();
  const store = root.featureStore(staffFeedbackStoreOf);
  const { t } = useTranslation();
  const textsReady = useReportFeedbackTexts(root.i18n.i18n, root.i18n.locale);
  // Signing in or out asks the server again.
  const staffUserId = root.staff.user?.userId ?? null;

  useEffect(() => {
    void store.load(1);
    return () => store.dispose();
  }, [store, staffUserId]);

  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('reportFeedback.staff.title')} className="pp-staff-feedback">
      {store.problem === 'signInNeeded' ? (
        <StaffSignInNotice
          text={t('reportFeedback.staff.signInNeeded')}
          label={t('reportFeedback.staff.signIn')}
          onSignedIn={() => void store.load(1)}
        />
      ) : store.problem === 'roleNeeded' ? (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('reportFeedback.staff.roleNeeded')}
        </p>
      ) : store.problem === 'unavailable' ? (
        <PageLoadState
          failed
          errorText={t('reportFeedback.staff.unavailable')}
          retryText={t('reportFeedback.staff.retry')}
          onRetry={() => void store.load()}
        />
      ) : store.loadState === 'loaded' ? (
        <Feedback store={store} />
      ) : (
        <PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />
      )}
    </Page>
  );
});
