import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router-dom';
import type { PatientResult } from '@contract/api/results';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { useResultsTexts } from '../../i18n/results-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { formatStartTime } from '../booking/public';
import { ShareResultsButton } from '../result-shares/public';
import { HistorySection } from './history-section';
import { restoreImagesReturn } from './images-return';
import { ReadableReport } from './readable-report';
import { ExamFactItems, ImagesAction, ReportFactItems, ReportPdfLinks, useImagesLabel } from './report-parts';
import { resultStoreOf, type ResultSignInType, type ResultStore } from './result-store';
import './results.css';

type Released = Extract<PatientResult, { state: 'RELEASED' }>;

export { reportParagraphs } from './report-sections';

/** /appointments/{key}/result/patient is the patient portal link; /result comes from the results e-mail. */
const PATIENT_PORTAL_PATH = /\/result\/patient\/?$/;

/** The exam the result belongs to: its name, the clinic and when it took place (in the clinic's zone). */
function ExamHeading({ result }: { result: PatientResult }) {
  const { appointment } = result;
  return (
    <section className="pp-result-exam" aria-labelledby="pp-result-exam-title">
      <h2 id="pp-result-exam-title">{appointment.examName}</h2>
      <dl className="pp-details">
        <ExamFactItems exam={appointment} dateTestId="result-exam-date" />
      </dl>
    </section>
  );
}

const Report = observer(function Report({ store, result }: { store: ResultStore; result: Released }) {
  const { t } = useTranslation();
  const { timeZone } = result.appointment;
  const imagesLabel = useImagesLabel(result.appointment);
  return (
    <section className="pp-result-report" aria-labelledby="pp-result-report-title">
      <h2 id="pp-result-report-title">{t('results.report.title')}</h2>
      {/* The conclusion first, then the findings; who sent and when come after what it says. */}
      <ReadableReport text={result.reportText} />
      <dl className="pp-details">
        <ReportFactItems report={{ ...result, timeZone }} />
      </dl>
      <ReportPdfLinks viewUrl={store.reportPdfUrl(false) ?? undefined} downloadUrl={store.reportPdfUrl(true) ?? undefined} />
      <ImagesAction opener={store.images} hasLink={store.imageViewerLink !== null} onOpen={() => void store.openImages(imagesLabel)} />
      <ShareAction store={store} />
    </section>
  );
});

/** Sharing the result or the whole history with a GP or family: the same sign-in allows both (docs/rules/results.md#sharing). */
function ShareAction({ store }: { store: ResultStore }) {
  const { t } = useTranslation();
  if (store.bookingKey === null) return null;
  return (
    <section className="pp-result-share" aria-labelledby="pp-result-share-title">
      <h3 id="pp-result-share-title">{t('results.share.title')}</h3>
      <p className="pp-muted">{t('results.share.hint')}</p>
      <div className="pp-button-row">
        <ShareResultsButton bookingKey={store.bookingKey} type="RESULT" />
        <ShareResultsButton bookingKey={store.bookingKey} type="HISTORY" />
      </div>
    </section>
  );
}

/** What the result says for its state. */
function ResultBody({ store, result }: { store: ResultStore; result: PatientResult }) {
  const { t, i18n } = useTranslation();
  switch (result.state) {
    case 'NOT_AVAILABLE':
      return (
        <p className="pp-notice" data-state="NOT_AVAILABLE">
          {t('results.notAvailable')}
        </p>
      );
    case 'NOT_RELEASED':
      return (
        <p className="pp-notice" data-state="NOT_RELEASED">
          {t('results.notReleased', {
            date: formatStartTime(result.releaseAt, i18n.language, result.appointment.timeZone, true),
          })}
        </p>
      );
    case 'RELEASED':
      return <Report store={store} result={result} />;
  }
}

const ResultView = observer(function ResultView({ store }: { store: ResultStore }) {
  const { t } = useTranslation();
  const result = store.result;
  return (
    <Page title={t('results.title')} className="pp-result">
      {store.loadState === 'error' || !result ? (
        store.loadState !== 'idle' && (
          <PageLoadState
            failed={store.loadState === 'error'}
            errorText={t('results.loadError')}
            retryText={t('results.retry')}
            onRetry={() => void store.retry()}
          />
        )
      ) : (
        <>
          <ExamHeading result={result} />
          <ResultBody store={store} result={result} />
          {/* One sign-in opens the earlier results too, from either results page. */}
          {store.loadState === 'loaded' && store.bookingKey !== null && <HistorySection bookingKey={store.bookingKey} />}
        </>
      )}
    </Page>
  );
});

/**
 * /appointments/{key}/result and /result/patient: the patient's result of one appointment
 * (docs/rules/results.md#patient-result-page-web).
 */
export const ResultPage = observer(function ResultPage() {
  const root = useStores();
  const store = root.featureStore(resultStoreOf);
  const { bookingKey = '' } = useParams();
  const { pathname, search } = useLocation();
  const type: ResultSignInType = PATIENT_PORTAL_PATH.test(pathname) ? 'PATIENT_PORTAL' : 'APPOINTMENT_RESULTS';
  const textsReady = useResultsTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open(bookingKey, type);
    return () => store.dispose();
  }, [store, bookingKey, type]);

  // Back from the images: the same place of the page (images-return.ts).
  const loaded = store.loadState === 'loaded' && textsReady;
  useEffect(() => {
    if (loaded) restoreImagesReturn(window, `${pathname}${search}`);
  }, [loaded, pathname, search]);

  // The authenticated check and the result load while the page's texts arrive.
  if (!textsReady) return <LoadingOverlay />;
  return <ResultView store={store} />;
});
