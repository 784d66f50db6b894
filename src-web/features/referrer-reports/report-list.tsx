import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Suspense } from 'react';
import { AntdScope } from '../../components/antd-scope';
import { Button } from '../../components/button';
import type { ReferrerAccessStore } from './referrer-access-store';
import { ReportTable } from './report-table';

/** What the list says when it has no rows: why, in words. */
const EmptyList = observer(function EmptyList({ store }: { store: ReferrerAccessStore }) {
  const { t } = useTranslation();
  if (store.reason === 'no_provider_number')
    return (
      <p className="pp-notice pp-notice-error" data-empty="no_provider_number">
        {t('referrerAccess.noProviderNumber')}
      </p>
    );
  if (store.searched !== '') return <p data-empty="no_match">{t('referrerAccess.noMatch', { search: store.searched })}</p>;
  return <p data-empty="none">{t('referrerAccess.empty')}</p>;
});

/** The referrer's reports (a sortable table), the count (announced politely), and "Show more" while there are more. */
export const ReportList = observer(function ReportList({ store, listId }: { store: ReferrerAccessStore; listId: string }) {
  const { t } = useTranslation();
  const loading = store.loadState === 'loading';
  return (
    <>
      <p role="status" className="pp-referrer-status">
        {loading
          ? t('referrerAccess.loading')
          : store.unreadCount > 0
            ? t('referrerAccess.countUnread', { count: store.reports.length, unread: store.unreadCount })
            : t('referrerAccess.count', { count: store.reports.length })}
      </p>
      {!loading && store.reports.length === 0 && <EmptyList store={store} />}
      {store.reports.length > 0 && (
        // antd's provider loads its locale lazily: the count line stays while it comes.
        <Suspense fallback={<p>{t('referrerAccess.loading')}</p>}>
          <AntdScope>
            <ReportTable store={store} listId={listId} />
          </AntdScope>
        </Suspense>
      )}
      {store.moreFailed && (
        <p role="alert" className="pp-notice pp-notice-error">
          {t('referrerAccess.moreFailed')}
        </p>
      )}
      {store.nextCursor !== null && !loading && (
        <Button variant="secondary" disabled={store.loadingMore} onClick={() => void store.loadMore()}>
          {t('referrerAccess.more')}
        </Button>
      )}
    </>
  );
});
