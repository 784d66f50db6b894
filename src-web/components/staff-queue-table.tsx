import Table, { type ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { useMemo } from 'react';
import { dateTimeFormat } from '../platform/dates';
import { namedTable } from './named-table';
import type { StaffQueueStore } from './staff-queue-store';

/** When something in a staff queue happened: "27 Nov, 8:29 pm" in the page's locale. */
export function queueTime(iso: string, locale: string): string {
  return dateTimeFormat(locale, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
}

/**
 * A staff queue's table (the callbacks, the booking requests): the items as the server orders
 * them, named by the heading above, open rows standing out, no paging (the server caps the list).
 */
export const StaffQueueTable = observer(function StaffQueueTable<Item extends { status: string }>({
  store,
  columns,
  rowKey,
  headingId,
  emptyText,
}: {
  store: StaffQueueStore<Item>;
  columns: ColumnsType<Item>;
  rowKey: keyof Item & string;
  headingId: string;
  emptyText: string;
}) {
  const NamedTable = useMemo(() => namedTable(headingId), [headingId]);
  return (
    <Table<Item>
      className="pp-staff-queue-table"
      rowKey={rowKey}
      size="middle"
      columns={columns}
      dataSource={store.data?.items ?? []}
      loading={store.loadState === 'loading'}
      components={{ table: NamedTable }}
      rowClassName={(item) => (item.status === 'open' ? 'pp-staff-queue-row-open' : 'pp-staff-queue-row-done')}
      locale={{ emptyText }}
      pagination={false}
    />
  );
});
