import { useEffect, useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { REFERRER_SEARCH_MAX_LENGTH } from '@contract/api/referrer-reports';
import { Page } from '../../components/page';
import { TextField } from '../../components/text-field';
import { PageLoadState } from '../../components/page-load-state';
import { StaffSignInNotice } from '../../components/staff-sign-in-action';
import { useReferrerAccessTexts } from './referrer-access-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { referrerAccessStoreOf, type ReferrerAccessStore } from './referrer-access-store';
import { ReportList } from './report-list';
import './referrer-access.css';

const Problem = observer(function Problem({ store }: { store: ReferrerAccessStore }) {
  const { t } = useTranslation();
  switch (store.problem?.kind) {
    case undefined:
      return null;
    case 'signInNeeded':
      return (
        <StaffSignInNotice
          tone="neutral"
          text={t('referrerAccess.signInNeeded')}
          label={t('referrerAccess.signIn')}
          onSignedIn={() => void store.load()}
        />
      );
    case 'roleNeeded':
      return (
        <div role="alert" className="pp-notice pp-notice-error" data-problem="roleNeeded">
          <p>{t('referrerAccess.roleNeeded')}</p>
        </div>
      );
    case 'unavailable':
      return (
        <PageLoadState
          failed
          errorText={t('referrerAccess.unavailable')}
          retryText={t('referrerAccess.retry')}
          onRetry={() => void store.load()}
        />
      );
  }
});

const SearchField = observer(function SearchField({ store, listId }: { store: ReferrerAccessStore; listId: string }) {
  const { t } = useTranslation();
  const fieldId = useId();
  return (
    <form role="search" className="pp-referrer-search" onSubmit={(event) => (event.preventDefault(), void store.load())}>
      <TextField
        id={fieldId}
        name="search"
        label={t('referrerAccess.search.label')}
        hint={t('referrerAccess.search.hint')}
        value={store.search}
        problem={null}
        onChange={(value) => store.setSearch(value)}
        inputProps={{
          type: 'search',
          maxLength: REFERRER_SEARCH_MAX_LENGTH,
          autoComplete: 'off',
          spellCheck: false,
          // Only while the list is there: an aria-controls naming no element is invalid ARIA.
          'aria-controls': store.reports.length > 0 ? listId : undefined,
        }}
      />
    </form>
  );
});

/**
 * /referrer-access: a referring doctor signs in through the provider's identity provider and sees
 * their patients' reports, newest first, each opening the quick report
 * (docs/rules/referrers.md#referrer-report-list).
 */
export const ReferrerAccessPage = observer(function ReferrerAccessPage() {
  const root = useStores();
  const store = root.featureStore(referrerAccessStoreOf);
  const { t } = useTranslation();
  const textsReady = useReferrerAccessTexts(root.i18n.i18n, root.i18n.locale);
  const listId = useId();
  // Signing in or out (here or in the navigation) asks the server again.
  const staffUserId = root.staff.user?.userId ?? null;

  useEffect(() => {
    void store.load();
    return () => store.dispose();
  }, [store, staffUserId]);

  if (!textsReady) return <LoadingOverlay />;
  // After the first answer the field and the list stay while a search runs (the field keeps its focus and text).
  const listable = store.problem === null && store.hasLoaded;
  return (
    <Page title={t('referrerAccess.title')} className="pp-referrer-access">
      <p>{t('referrerAccess.intro')}</p>
      <Problem store={store} />
      {listable && <SearchField store={store} listId={listId} />}
      {listable && <ReportList store={store} listId={listId} />}
      {store.problem === null && !store.hasLoaded && <PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />}
    </Page>
  );
});
