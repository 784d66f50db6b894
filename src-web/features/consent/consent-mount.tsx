import { observer } from 'mobx-react-lite';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { analyticsAllowedOn, analyticsIdsOf } from '@contract/shell/analytics';
import { useConsentTexts } from './consent-texts';
import { useStores } from '../../stores/use-stores';
import { ConsentBanner } from './consent-banner';
import { consentStoreOf } from './consent-store';

/**
 * The website's analytics consent (docs/rules/analytics.md): mounted by the site layout only where the
 * provider turned GA4 or Tag Manager on with an id, never in kiosk mode, in a frame, or on staff,
 * referrer and kiosk pages. The loader is a chunk of its own, imported only after "Allow analytics".
 */
export const ConsentMount = observer(function ConsentMount() {
  const root = useStores();
  const store = root.featureStore(consentStoreOf);
  const { pathname } = useLocation();
  const ids = analyticsIdsOf(root.config.app);
  const allowed = ids !== null && !root.ui.kiosk && analyticsAllowedOn(pathname);
  const ready = useConsentTexts(root.i18n.i18n, root.i18n.locale, allowed && store.bannerOpen);
  const ga4 = ids?.ga4 ?? null;
  const gtm = ids?.gtm ?? null;
  const everGranted = useRef(false);

  // "Cookie settings" (footer, phone menu) counts requests in the UI store, also before this chunk loaded.
  const requests = root.ui.cookieSettingsRequests;
  useEffect(() => store.followSettingsRequests(requests), [requests, store]);
  // The footer and the phone menu offer "Cookie settings" only where this banner applies.
  useEffect(() => {
    root.ui.offerCookieSettings(allowed);
    return () => root.ui.offerCookieSettings(false);
  }, [root, allowed]);

  useEffect(() => {
    if (!allowed || store.choice === null) return;
    if (store.choice === 'granted') {
      everGranted.current = true;
      void import('../analytics/public').then((analytics) => analytics.loadAnalytics(window, { ga4, gtm }));
    } else if (everGranted.current) {
      void import('../analytics/public').then((analytics) => analytics.withdrawAnalytics(window));
    }
  }, [allowed, store.choice, ga4, gtm]);

  if (!allowed || !store.bannerOpen || !ready) return null;
  return <ConsentBanner onChoose={(choice) => store.choose(choice)} focusOnOpen={store.settingsOpen} />;
});
