import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { useResultsTexts } from '../../i18n/results-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { ExamFactItems, ImagesAction, ReadableReport, ReportFactItems, ReportPdfLinks } from '../results/public';
import { sharedResultsStoreOf, type SharedResultItem, type SharedResultsStore } from './shared-results-store';

/** One shared report, read-only: exam, clinic and date in the clinic's zone, the report, its PDF and images. */
const SharedReport = observer(function SharedReport({ store, item }: { store: SharedResultsStore; item: SharedResultItem }) {
  const { result } = item;
  const titleId = `pp-shared-${result.resultId}`;
  return (
    <li className="pp-history-item" aria-labelledby={titleId}>
      <h2 id={titleId}>{result.examName}</h2>
      <dl className="pp-details">
        <ExamFactItems exam={result} />
        <ReportFactItems report={result} />
      </dl>
      <ReadableReport text={result.reportText} />
      <ReportPdfLinks viewUrl={store.pdfUrl(item, false)} downloadUrl={store.pdfUrl(item, true)} onOpen={() => void store.recheck()} />
      <ImagesAction opener={item.images} hasLink={result.imageViewerLink !== null} onOpen={() => void store.openImages(item)} />
    </li>
  );
});

const SharedResultsView = observer(function SharedResultsView({ store }: { store: SharedResultsStore }) {
  const { t } = useTranslation();
  const shared = store.shared;
  return (
    <Page title={t('results.shared.title')} className="pp-result pp-shared-results">
      {store.state === 'badLink' ? (
        <p role="alert" className="pp-notice pp-notice-error" data-state="badLink">
          {t('results.shared.badLink')}
        </p>
      ) : store.state === 'leaving' ? (
        <p role="status" className="pp-muted">
          {t('results.shared.opening')}
        </p>
      ) : store.state === 'error' || shared === null ? (
        store.state !== 'idle' && (
          <PageLoadState
            failed={store.state === 'error'}
            errorText={t('results.shared.loadError')}
            retryText={t('results.retry')}
            onRetry={() => void store.retry()}
          />
        )
      ) : (
        <>
          <p className="pp-shared-by" data-testid="shared-by">
            {t('results.shared.sharedBy', { sharedBy: shared.sharedBy })}
          </p>
          <p className="pp-muted">{t('results.shared.readOnly')}</p>
          {store.items.length === 0 ? (
            <p className="pp-notice">{t('results.shared.none')}</p>
          ) : (
            <ul className="pp-history-list" aria-label={t('results.shared.listLabel')}>
              {store.items.map((item) => (
                <SharedReport key={item.result.resultId} store={store} item={item} />
              ))}
            </ul>
          )}
        </>
      )}
    </Page>
  );
});

/** /results/shared#<token> (docs/rules/results.md#sharing): the results a patient shared with this contact. */
export const SharedResultsPage = observer(function SharedResultsPage() {
  const root = useStores();
  const store = root.featureStore(sharedResultsStoreOf);
  // The fragment as the page opened: the store takes it out of the address bar at once.
  const location = useLocation();
  const [hash] = useState(location.hash);
  const textsReady = useResultsTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open(hash);
    return () => store.dispose();
  }, [store, hash]);

  if (!textsReady) return <LoadingOverlay />;
  return <SharedResultsView store={store} />;
});
