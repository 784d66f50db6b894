import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { useDemoViewerTexts } from './demo-viewer-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { readImagesReturn, type ImagesReturn } from '../results/public';
import { demoViewerStoreOf, type DemoViewerStore } from './demo-viewer-store';
import { ZoomableImage } from '../../components/zoomable-image';
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

/**
 * The image first, where the patient is looking; named by the result page's label (the exam and
 * its date, docs/rules/results.md#way-back-from-the-images), never by the study's UID; the thumbnails after it.
 */
const Viewer = observer(function Viewer({ store, label, framed }: { store: DemoViewerStore; label: string | null; framed: boolean }) {
  const { t } = useTranslation();
  const { study, current } = store;
  if (study === null || current === null) return null;
  const total = study.images.length;
  const title = t('demoViewer.imageTitle', { current: store.selected + 1, total, title: current.title });
  return (
    <>
      {/* Framed (the referrer's quick report), the page around it already names the exam. */}
      {!framed && <h2>{label ?? study.description}</h2>}
      <figure className="pp-demo-viewer-figure">
        <figcaption role="status">{title}</figcaption>
        {/* A new image starts unzoomed. */}
        <ZoomableImage
          key={current.index}
          src={store.imageUrl(current.index)}
          alt={title}
          classPrefix="pp-demo-viewer"
          labels={{
            zoomIn: t('demoViewer.zoomIn'),
            zoomOut: t('demoViewer.zoomOut'),
            reset: t('demoViewer.reset'),
            tools: t('demoViewer.zoomTools'),
            hint: t('demoViewer.hint'),
          }}
        />
        {/* Under the image, so on a phone the image starts right below its caption. */}
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
      </figure>
      {!framed && <Thumbnails store={store} />}
    </>
  );
});

/** "Back to your results": the result page the images were opened from (images-return.ts), which scrolls back to its place. */
function BackToResults({ noted }: { noted: ImagesReturn | null }) {
  const { t } = useTranslation();
  if (noted === null) return null;
  return (
    <p className="pp-demo-viewer-back">
      <a href={noted.back}>{t('demoViewer.back')}</a>
    </p>
  );
}

/**
 * /demo-viewer?study=…&token=…: the demo provider's stand-in for a PACS image viewer. The token
 * (a signed demo viewer link) decides the study; an expired or invalid one says so. With
 * `fit=frame` (the referrer's quick report frames it) it shows only the image, its caption and
 * Previous / Next, fitted to the frame.
 */
export const DemoViewerPage = observer(function DemoViewerPage() {
  const root = useStores();
  const store = root.featureStore(demoViewerStoreOf);
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get('token');
  const framed = search.get('fit') === 'frame';
  const textsReady = useDemoViewerTexts(root.i18n.i18n, root.i18n.locale);
  const [noted] = useState(() => readImagesReturn(window));

  useEffect(() => {
    void store.open(token);
    return () => store.dispose();
  }, [store, token]);

  if (!textsReady) return <LoadingOverlay />;
  const body = (
    <>
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
        <Viewer store={store} label={noted?.label ?? null} framed={framed} />
      )}
    </>
  );
  // ?fit=frame (the quick report's frame): only the viewer, filling the frame without scrolling.
  if (framed)
    return (
      <div className="pp-demo-viewer pp-demo-viewer-framed">
        <h1 className="pp-visually-hidden">{t('demoViewer.title')}</h1>
        {body}
      </div>
    );
  return (
    <Page title={t('demoViewer.title')} className="pp-demo-viewer">
      <BackToResults noted={noted} />
      {body}
      <p className="pp-notice pp-demo-viewer-notice">{t('demoViewer.demoNotice')}</p>
    </Page>
  );
});
