import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoadState } from '../../components/page-load-state';
import { useStores } from '../../stores/use-stores';
import { formatStartTime } from '../booking/public';
import { historyStoreOf, type HistoryItem, type HistoryStore } from './history-store';
import { ReadableReport } from './readable-report';
import { ExamFactItems, ImagesAction, ReportFactItems, ReportPdfLinks, useImagesLabel } from './report-parts';

/** One earlier appointment: exam, clinic and date in the clinic's zone; the report once released. */
const HistoryEntry = observer(function HistoryEntry({ store, item }: { store: HistoryStore; item: HistoryItem }) {
  const { t, i18n } = useTranslation();
  const { appointment } = item;
  const titleId = `pp-history-item-${appointment.resultId}`;
  const imagesLabel = useImagesLabel(appointment);
  return (
    <li className="pp-history-item" aria-labelledby={titleId}>
      <h3 id={titleId}>{appointment.examName}</h3>
      <dl className="pp-details">
        <ExamFactItems exam={appointment} />
        {appointment.state === 'RELEASED' && appointment.referrerName !== null && appointment.reportedAt !== null && (
          <ReportFactItems report={{ ...appointment, referrerName: appointment.referrerName, reportedAt: appointment.reportedAt }} />
        )}
      </dl>
      {appointment.state === 'RELEASED' ? (
        <>
          <ReadableReport text={appointment.reportText ?? ''} level={4} />
          <ReportPdfLinks viewUrl={store.pdfUrl(item, false)} downloadUrl={store.pdfUrl(item, true)} />
          <ImagesAction
            opener={item.images}
            hasLink={appointment.imageViewerLink !== null}
            onOpen={() => void store.openImages(item, imagesLabel)}
            level={4}
          />
        </>
      ) : (
        <p className="pp-notice" data-state="NOT_RELEASED">
          {t('results.history.notReleased', {
            date: formatStartTime(appointment.releaseAt, i18n.language, appointment.timeZone, true),
          })}
        </p>
      )}
    </li>
  );
});

const HistoryView = observer(function HistoryView({ store }: { store: HistoryStore }) {
  const { t } = useTranslation();
  return (
    <section className="pp-history" aria-labelledby="pp-history-title" data-testid="history">
      <h2 id="pp-history-title">{t('results.history.title')}</h2>
      {store.items === null ? (
        <PageLoadState
          failed={store.failed}
          errorText={t('results.history.failed')}
          retryText={t('results.retry')}
          onRetry={() => void store.retry()}
        />
      ) : store.items.length === 0 ? (
        <p className="pp-muted">{t('results.history.none')}</p>
      ) : (
        <ul className="pp-history-list" aria-label={t('results.history.listLabel')}>
          {store.items.map((item) => (
            <HistoryEntry key={item.appointment.resultId} store={store} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
});

/** "Your earlier results" below the result: the same sign-in opens them (docs/rules/results.md#earlier-results-web). */
export const HistorySection = observer(function HistorySection({ bookingKey }: { bookingKey: string }) {
  const root = useStores();
  const store = root.featureStore(historyStoreOf);
  useEffect(() => {
    void store.start(bookingKey);
    return () => store.dispose();
  }, [store, bookingKey]);
  return <HistoryView store={store} />;
});
