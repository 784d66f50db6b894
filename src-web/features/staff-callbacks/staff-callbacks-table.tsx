import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { CallbackWindow, StaffCallback } from '@contract/api/callbacks';
import { QueueDoneStatus, QueueOpenStatus, queueTime, StaffQueueTable } from '../../components/staff-queue-table';
import { useStores } from '../../stores/use-stores';
import type { StaffCallbacksStore } from './staff-callbacks-store';

export const CALLBACKS_TABLE_HEADING_ID = 'pp-staff-callbacks-table-heading';

/** One literal t() per window, so the catalogue check sees every key. */
export function windowWords(t: TFunction, window: CallbackWindow): string {
  switch (window) {
    case 'weekdayMorning':
      return t('staffCallbacks.window.weekdayMorning');
    case 'weekdayAfternoon':
      return t('staffCallbacks.window.weekdayAfternoon');
    case 'saturdayMorning':
      return t('staffCallbacks.window.saturdayMorning');
    case 'anyTime':
      return t('staffCallbacks.window.anyTime');
  }
}

/** The queue as the server orders it: open requests oldest first, then the latest called; "Mark called" on each open one. */
export const StaffCallbacksTable = observer(function StaffCallbacksTable({ store }: { store: StaffCallbacksStore }) {
  const { t } = useTranslation();
  const { i18n } = useStores();
  if (store.data === null) return null;
  const locale = i18n.locale;

  const columns: ColumnsType<StaffCallback> = [
    {
      key: 'name',
      title: t('staffCallbacks.column.name'),
      render: (_: unknown, item) => <span className="pp-staff-queue-strong">{`${item.firstName} ${item.lastName}`}</span>,
    },
    {
      key: 'phone',
      title: t('staffCallbacks.column.phone'),
      render: (_: unknown, item) => (
        <a className="pp-staff-queue-phone" href={`tel:${item.phone}`}>
          {item.phone}
        </a>
      ),
    },
    {
      key: 'windows',
      title: t('staffCallbacks.column.windows'),
      render: (_: unknown, item) => (
        <ul className="pp-staff-queue-list">
          {item.windows.map((window) => (
            <li key={window}>{windowWords(t, window)}</li>
          ))}
        </ul>
      ),
    },
    {
      key: 'reason',
      title: t('staffCallbacks.column.reason'),
      render: (_: unknown, item) => (
        <>
          <span className="pp-staff-queue-words">{item.reason}</span>
          {item.examName !== null && <span className="pp-staff-queue-minor">{t('staffCallbacks.exam', { exam: item.examName })}</span>}
        </>
      ),
    },
    {
      key: 'received',
      title: t('staffCallbacks.column.received'),
      render: (_: unknown, item) => <time dateTime={item.receivedAt}>{queueTime(item.receivedAt, locale)}</time>,
    },
    {
      key: 'status',
      title: t('staffCallbacks.column.status'),
      render: (_: unknown, item) =>
        item.status === 'open' ? (
          <QueueOpenStatus
            label={t('staffCallbacks.status.open')}
            markLabel={t('staffCallbacks.mark.button')}
            name={`${item.firstName} ${item.lastName}`}
            onMark={() => store.openMark(item)}
          />
        ) : (
          <QueueDoneStatus
            label={t('staffCallbacks.status.called')}
            at={item.calledAt}
            by={item.calledBy}
            byText={(when, who) => t('staffCallbacks.calledBy', { when, who })}
            note={item.note}
            locale={locale}
          />
        ),
    },
  ];

  return (
    <StaffQueueTable<StaffCallback>
      store={store}
      columns={columns}
      rowKey="id"
      headingId={CALLBACKS_TABLE_HEADING_ID}
      emptyText={t('staffCallbacks.empty')}
    />
  );
});
