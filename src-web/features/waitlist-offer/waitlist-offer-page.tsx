import { observer } from 'mobx-react-lite';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { WaitlistOfferView } from '@contract/api/waitlist';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { formatInstant, formatStartTime } from '../booking/public';
import { waitlistOfferStoreOf, type WaitlistOfferStore } from './waitlist-offer-store';
import { useWaitlistOfferTexts } from './waitlist-offer-texts';
import './waitlist-offer.css';

/** When the hold ends: its time, with the weekday when that is not today at the clinic (an offer made at night). */
function heldUntil(expiresAt: string, locale: string, timeZone: string): string {
  const day = (instant: string) => formatInstant(instant, 'en-CA', timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' });
  const today = day(expiresAt) === day(new Date().toISOString());
  return formatInstant(expiresAt, locale, timeZone, { ...(today ? {} : { weekday: 'long' }), hour: 'numeric', minute: '2-digit' });
}

/** The earlier time and the patient's time now, side by side in one list. */
function Times({ view }: { view: WaitlistOfferView }) {
  const { t, i18n } = useTranslation();
  const at = (instant: string) => formatStartTime(instant, i18n.language, view.timeZone, true);
  return (
    <dl className="pp-details" data-testid="offer-times">
      <div>
        <dt>{t('waitlistOffer.earlier')}</dt>
        <dd>
          <time dateTime={view.offered.startsAt}>{at(view.offered.startsAt)}</time>
          <span className="pp-muted"> · {view.offered.clinicName}</span>
        </dd>
      </div>
      <div>
        <dt>{t('waitlistOffer.exams')}</dt>
        <dd>{view.offered.examNames.join(', ')}</dd>
      </div>
      {view.current !== null && view.outcome !== 'accepted' && (
        <div>
          <dt>{t('waitlistOffer.current')}</dt>
          <dd>
            <time dateTime={view.current.startsAt}>{at(view.current.startsAt)}</time>
          </dd>
        </div>
      )}
    </dl>
  );
}

/** The last press's outcome, focused when it appears. */
const Outcome = observer(function Outcome({ store }: { store: WaitlistOfferStore }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLParagraphElement>(null);
  const count = store.page.outcomeCount;
  useEffect(() => {
    if (count > 0) ref.current?.focus();
  }, [count]);
  const { outcome } = store.page;
  if (outcome === null) return null;
  const bad = outcome.kind === 'failed' || outcome.kind === 'refused';
  const text = {
    accepted: t('waitlistOffer.accepted'),
    declined: t('waitlistOffer.declined'),
    failed: t('waitlistOffer.actionFailed'),
    refused: outcome.kind === 'refused' ? outcome.message : '',
  }[outcome.kind];
  return (
    <p
      ref={ref}
      role={bad ? 'alert' : 'status'}
      tabIndex={-1}
      className={`pp-notice ${bad ? 'pp-notice-error' : 'pp-notice-success'}`}
      data-testid="offer-outcome"
    >
      {text}
    </p>
  );
});

/** Where an offer stands when it is no longer open, said once (the outcome says it when it just changed). */
function Closed({ view, justAnswered }: { view: WaitlistOfferView; justAnswered: boolean }) {
  const { t } = useTranslation();
  if (justAnswered || view.outcome === 'offered') return null;
  const text = {
    accepted: t('waitlistOffer.is.accepted'),
    taken: t('waitlistOffer.is.taken'),
    declined: t('waitlistOffer.is.declined'),
    expired: t('waitlistOffer.is.expired'),
  }[view.outcome];
  return <p className="pp-notice">{text}</p>;
}

const OfferView = observer(function OfferView({ store }: { store: WaitlistOfferStore }) {
  const { t, i18n } = useTranslation();
  const { view } = store.page;
  return (
    <Page title={t('waitlistOffer.title')} className="pp-waitlist-offer">
      {store.page.state === 'invalid' && (
        <p role="alert" className="pp-notice pp-notice-error" data-testid="offer-invalid">
          {t('waitlistOffer.invalid')}
        </p>
      )}
      {(store.page.state === 'loading' || store.page.state === 'idle' || store.page.state === 'failed') && (
        <PageLoadState
          failed={store.page.state === 'failed'}
          errorText={t('waitlistOffer.loadError')}
          retryText={t('waitlistOffer.retry')}
          onRetry={() => void store.page.retry()}
        />
      )}
      {store.page.state === 'ready' && view !== null && (
        <>
          <Times view={view} />
          <Outcome store={store} />
          <Closed view={view} justAnswered={store.page.outcome !== null && store.page.outcome.kind !== 'failed'} />
          {view.outcome === 'offered' && (
            <section aria-labelledby="pp-offer-question">
              <h2 id="pp-offer-question">{t('waitlistOffer.question')}</h2>
              <p>
                {t('waitlistOffer.held', {
                  until: heldUntil(view.expiresAt, i18n.language, view.timeZone),
                })}
              </p>
              <div className="pp-actions">
                <Button onClick={() => void store.accept()} disabled={store.page.saving} aria-busy={store.page.saving}>
                  {store.page.saving ? t('waitlistOffer.saving') : t('waitlistOffer.accept')}
                </Button>
                <Button variant="secondary" onClick={() => void store.decline()} disabled={store.page.saving}>
                  {t('waitlistOffer.decline')}
                </Button>
              </div>
            </section>
          )}
          <p className="pp-offer-more">
            <a href={view.appointmentUrl}>{t('waitlistOffer.openAppointment')}</a>
          </p>
        </>
      )}
    </Page>
  );
});

/** /waitlist-offer?token=…: an earlier time offered by mail. Nothing changes until a button here is pressed. */
export const WaitlistOfferPage = observer(function WaitlistOfferPage() {
  const root = useStores();
  const store = root.featureStore(waitlistOfferStoreOf);
  const [params] = useSearchParams();
  const token = params.get('token');
  const textsReady = useWaitlistOfferTexts(root.i18n.i18n, root.i18n.locale);
  useEffect(() => {
    void store.page.open(token);
  }, [store, token]);
  if (!textsReady) return <LoadingOverlay />;
  return <OfferView store={store} />;
});
