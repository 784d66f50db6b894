import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { useDemoViewerTexts } from '../../i18n/demo-viewer-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { demoViewerStoreOf, type DemoViewerStore } from './demo-viewer-store';
import { DemoZoomImage } from './demo-zoom-image';
import './demo-viewer.css';

/** The study's images as a strip of labelled buttons; the shown one is pressed. */
const Thumbnails = observer(function Thumbnails({ store }: { store: DemoViewerStore }) {
  const { t } = useTranslation();
  return (
    <ul className="pp-demo-viewer-thumbs" aria-label={t('demoViewer.images')}>
      {store.images.map((image) => (
        <li key={image.index}>
          <button
            type="button"
            className="pp-demo-viewer-thumb"
            aria-pressed={store.selected === image.index}
            onClick={() => store.select(image.index)}
          >
            <img src={store.imageUrl(image.index)} alt="" width={96} height={96} loading="lazy" />
            <span>{t('demoViewer.showImage', { number: image.index + 1, title: image.title })}</span>
          </button>
        </li>
      ))}
    </ul>
  );
});

const Viewer = observer(function Viewer({ store }: { store: DemoViewerStore }) {
  const { t } = useTranslation();
  const { study, current } = store;
  if (study === null || current === null) return null;
  const total = study.images.length;
  const title = t('demoViewer.imageTitle', { current: store.selected + 1, total, title: current.title });
  return (
    <>
      <h2>{study.description}</h2>
      <p className="pp-muted pp-demo-viewer-uid">{t('demoViewer.studyUid', { uid: study.studyInstanceUid })}</p>
      <Thumbnails store={store} />
      <figure className="pp-demo-viewer-figure">
        <figcaption role="status">{title}</figcaption>
        {total > 1 && (
          <div className="pp-button-row">
            <Button variant="secondary" onClick={() => store.step(-1)}>
              {t('demoViewer.previous')}
            </Button>
            <Button variant="secondary" onClick={() => store.step(1)}>
              {t('demoViewer.next')}
            </Button>
          </div>
        )}
        {/* A new image starts unzoomed. */}
        <DemoZoomImage key={current.index} src={store.imageUrl(current.index)} alt={title} />
      </figure>
    </>
  );
});

/**
 * /demo-viewer?study=…&token=…: the demo provider's stand-in for a PACS image viewer. The token
 * (a signed demo viewer link) decides the study; an expired or invalid one says so.
 */
export const DemoViewerPage = observer(function DemoViewerPage() {
  const root = useStores();
  const store = root.featureStore(demoViewerStoreOf);
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get('token');
  const textsReady = useDemoViewerTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open(token);
    return () => store.dispose();
  }, [store, token]);

  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('demoViewer.title')} className="pp-demo-viewer">
      <p className="pp-notice">{t('demoViewer.demoNotice')}</p>
      {store.loadState === 'loading' || store.loadState === 'idle' ? (
        <PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />
      ) : store.problem === 'link' ? (
        <div role="alert" className="pp-notice pp-notice-error" data-problem="link">
          <p>{t('demoViewer.linkProblem')}</p>
        </div>
      ) : store.problem === 'unavailable' ? (
        <PageLoadState
          failed
          errorText={t('demoViewer.unavailable')}
          retryText={t('demoViewer.retry')}
          onRetry={() => void store.retry()}
        />
      ) : (
        <Viewer store={store} />
      )}
    </Page>
  );
});
