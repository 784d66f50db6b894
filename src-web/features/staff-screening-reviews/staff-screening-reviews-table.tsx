import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ScreeningReview } from '@contract/api/screening-reviews';
import { Button } from '../../components/button';
import { queueTime, StaffQueueTable } from '../../components/staff-queue-table';
import { formatCalendarDate } from '../../platform/dates';
import { useStores } from '../../stores/use-stores';
import type { StaffScreeningReviewsStore } from './staff-screening-reviews-store';

export const SCREENING_REVIEWS_TABLE_HEADING_ID = 'pp-staff-screening-reviews-table-heading';

function Patient({ item, t, locale }: { item: ScreeningReview; t: TFunction; locale: string }) {
  const { patient } = item;
  return (
    <>
      <span className="pp-staff-queue-strong">{patient.name}</span>
      <span className="pp-staff-queue-minor">
        {t('staffScreeningReviews.dateOfBirth', { date: formatCalendarDate(patient.dateOfBirth, locale) })}
      </span>
      {patient.phone !== null && (
        <a className="pp-staff-queue-phone" href={`tel:${patient.phone}`}>
          {patient.phone}
        </a>
      )}
      {patient.email !== null && <span className="pp-staff-queue-email">{patient.email}</span>}
    </>
  );
}

function Booking({ item, locale }: { item: ScreeningReview; locale: string }) {
  return (
    <>
      <ul className="pp-staff-queue-list">
        {item.exams.map((exam) => (
          <li key={exam}>{exam}</li>
        ))}
      </ul>
      <span className="pp-staff-queue-minor">{item.clinicName}</span>
      <time className="pp-staff-queue-minor" dateTime={item.startsAt}>
        {queueTime(item.startsAt, locale)}
      </time>
    </>
  );
}

/** The answers as the questionnaire asked them, and the documents uploaded with the booking. */
function Answers({ item, t }: { item: ScreeningReview; t: TFunction }) {
  return (
    <>
      {item.reason !== null && <span className="pp-staff-queue-words pp-staff-queue-open">{item.reason}</span>}
      {item.answers.map((answers) => (
        <div key={answers.questionnaire}>
          <span className="pp-staff-queue-strong">{answers.questionnaire}</span>
          <dl className="pp-staff-review-answers">
            {answers.items.map((answer) => (
              <div key={answer.question}>
                <dt>{answer.question}</dt>
                <dd>{answer.answer}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
      {item.documents.length === 0 ? (
        <span className="pp-staff-queue-minor">{t('staffScreeningReviews.noDocuments')}</span>
      ) : (
        <ul className="pp-staff-queue-list">
          {item.documents.map((document) => (
            <li key={document.downloadUrl}>
              <a href={document.downloadUrl} download={document.fileName}>
                {t('staffScreeningReviews.document', { name: document.fileName })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Decide({ item, store, t, locale }: { item: ScreeningReview; store: StaffScreeningReviewsStore; t: TFunction; locale: string }) {
  const name = <span className="pp-visually-hidden">{` ${item.patient.name}`}</span>;
  return (
    <>
      <span className="pp-staff-queue-open">{t('staffScreeningReviews.expires', { when: queueTime(item.expiresAt, locale) })}</span>
      <Button className="pp-staff-queue-mark" onClick={() => store.openMark(item, 'approve')}>
        {t('staffScreeningReviews.approve.button')}
        {name}
      </Button>
      <Button variant="secondary" className="pp-staff-queue-mark" onClick={() => store.openMark(item, 'decline')}>
        {t('staffScreeningReviews.decline.button')}
        {name}
      </Button>
    </>
  );
}

/** The held screenings as the server orders them: the soonest to expire first. */
export const StaffScreeningReviewsTable = observer(function StaffScreeningReviewsTable({ store }: { store: StaffScreeningReviewsStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  if (store.data === null) return null;
  const locale = i18n.locale;

  const columns: ColumnsType<ScreeningReview> = [
    {
      key: 'patient',
      title: t('staffScreeningReviews.column.patient'),
      render: (_: unknown, item) => <Patient item={item} t={t} locale={locale} />,
    },
    {
      key: 'booking',
      title: t('staffScreeningReviews.column.booking'),
      render: (_: unknown, item) => <Booking item={item} locale={locale} />,
    },
    { key: 'answers', title: t('staffScreeningReviews.column.answers'), render: (_: unknown, item) => <Answers item={item} t={t} /> },
    {
      key: 'decide',
      title: t('staffScreeningReviews.column.decide'),
      render: (_: unknown, item) => <Decide item={item} store={store} t={t} locale={locale} />,
    },
  ];

  return (
    <StaffQueueTable<ScreeningReview>
      store={store}
      columns={columns}
      rowKey="id"
      headingId={SCREENING_REVIEWS_TABLE_HEADING_ID}
      emptyText={t('staffScreeningReviews.empty')}
    />
  );
});
