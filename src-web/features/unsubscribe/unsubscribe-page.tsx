import { observer } from 'mobx-react-lite';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { useUnsubscribeTexts } from './unsubscribe-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { unsubscribeStoreOf, type UnsubscribeStore } from './unsubscribe-store';
import './unsubscribe.css';

/** The outcome of the last button press, focused when it appears so a screen reader and the keyboard land on it. */
const Outcome = observer(function Outcome({ store }: { store: UnsubscribeStore }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLParagraphElement>(null);
  const count = store.outcomeCount;
  useEffect(() => {
    if (count > 0) ref.current?.focus();
  }, [count]);
  const address = store.status?.address ?? '';
  if (store.outcome === null) return null;
  if (store.outcome === 'actionFailed')
    return (
      <p ref={ref} role="alert" tabIndex={-1} className="pp-notice pp-notice-error" data-testid="unsubscribe-outcome">
        {t('unsubscribePage.actionFailed')}
      </p>
    );
  return (
    <p ref={ref} role="status" tabIndex={-1} className="pp-notice pp-notice-success" data-testid="unsubscribe-outcome">
      {store.outcome === 'unsubscribed' ? t('unsubscribePage.unsubscribed', { address }) : t('unsubscribePage.resubscribed', { address })}
    </p>
  );
});

/** What stops and what still goes (docs/rules/notifications.md#unsubscribe), and the one button. */
const Offer = observer(function Offer({ store }: { store: UnsubscribeStore }) {
  const { t } = useTranslation();
  return (
    <section className="pp-unsubscribe-offer" aria-labelledby="pp-unsubscribe-stops">
      <h2 id="pp-unsubscribe-stops">{t('unsubscribePage.stopsHeading')}</h2>
      <ul>
        <li>{t('unsubscribePage.stops.requests')}</li>
        <li>{t('unsubscribePage.stops.changes')}</li>
        <li>{t('unsubscribePage.stops.results')}</li>
        <li>{t('unsubscribePage.stops.referrers')}</li>
      </ul>
      <p>{t('unsubscribePage.stillSent')}</p>
      <div className="pp-actions">
        <Button onClick={() => void store.unsubscribe()} disabled={store.saving} aria-busy={store.saving}>
          {store.saving ? t('unsubscribePage.saving') : t('unsubscribePage.unsubscribe')}
        </Button>
      </div>
    </section>
  );
});

/** Unsubscribed: says so (unless the outcome just did) and offers to subscribe again. */
const Unsubscribed = observer(function Unsubscribed({ store }: { store: UnsubscribeStore }) {
  const { t } = useTranslation();
  return (
    <section className="pp-unsubscribe-done" aria-labelledby="pp-unsubscribe-changed-mind">
      {store.outcome !== 'unsubscribed' && <p>{t('unsubscribePage.alreadyUnsubscribed', { address: store.status?.address ?? '' })}</p>}
      <h2 id="pp-unsubscribe-changed-mind">{t('unsubscribePage.changedMind')}</h2>
      <div className="pp-actions">
        <Button variant="secondary" onClick={() => void store.resubscribe()} disabled={store.saving} aria-busy={store.saving}>
          {store.saving ? t('unsubscribePage.saving') : t('unsubscribePage.resubscribe')}
        </Button>
      </div>
    </section>
  );
});

const UnsubscribeView = observer(function UnsubscribeView({ store }: { store: UnsubscribeStore }) {
  const { t } = useTranslation();
  const { status } = store;
  return (
    <Page title={t('unsubscribePage.title')} className="pp-unsubscribe">
      {store.state === 'invalid' && (
        <p role="alert" className="pp-notice pp-notice-error" data-testid="unsubscribe-invalid">
          {t('unsubscribePage.invalid')}
        </p>
      )}
      {(store.state === 'loading' || store.state === 'idle' || store.state === 'failed') && (
        <PageLoadState
          failed={store.state === 'failed'}
          errorText={t('unsubscribePage.loadError')}
          retryText={t('unsubscribePage.retry')}
          onRetry={() => void store.retry()}
        />
      )}
      {store.state === 'ready' && status !== null && (
        <>
          <dl className="pp-details">
            <div>
              <dt>{t('unsubscribePage.address')}</dt>
              <dd data-testid="unsubscribe-address">{status.address}</dd>
            </div>
          </dl>
          <Outcome store={store} />
          {status.unsubscribed ? <Unsubscribed store={store} /> : <Offer store={store} />}
        </>
      )}
    </Page>
  );
});

/** /unsubscribe?token=… (and under /iframe): the footer link of every mail. Nothing changes until the button is pressed. */
export const UnsubscribePage = observer(function UnsubscribePage() {
  const root = useStores();
  const store = root.featureStore(unsubscribeStoreOf);
  const [params] = useSearchParams();
  const token = params.get('token');
  const textsReady = useUnsubscribeTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open(token);
  }, [store, token]);

  if (!textsReady) return <LoadingOverlay />;
  return <UnsubscribeView store={store} />;
});
