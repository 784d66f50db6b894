import Table, { type ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { useMemo, type ReactNode } from 'react';
import { dateTimeFormat } from '../platform/dates';
import { Button } from './button';
import { namedTable } from './named-table';
import type { StaffQueueStore } from './staff-queue-store';

/** When something in a staff queue happened: "27 Nov, 8:29 pm" in the page's locale. */
export function queueTime(iso: string, locale: string): string {
  return dateTimeFormat(locale, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
}

/**
 * An open item's status cell, the same in every queue: "Open", what else the queue says of it
 * (children), and its mark button, named for the item's person too so that screen readers tell
 * the rows' buttons apart.
 */
export function QueueOpenStatus({
  label,
  markLabel,
  name,
  onMark,
  children,
}: {
  label: string;
  markLabel: string;
  name: string;
  onMark: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      <span className="pp-staff-queue-open">{label}</span>
      {children}
      <Button variant="secondary" className="pp-staff-queue-mark" onClick={onMark}>
        {markLabel}
        <span className="pp-visually-hidden">{` ${name}`}</span>
      </Button>
    </>
  );
}

/** A done item's status cell, the same in every queue: the word, when and by whom, and the staff member's note. */
export function QueueDoneStatus({
  label,
  at,
  by,
  byText,
  note,
  locale,
}: {
  label: string;
  at: string | null;
  by: string | null;
  /** "27 Nov, 8:29 pm by Sam". */
  byText: (when: string, who: string) => string;
  note: string | null;
  locale: string;
}) {
  return (
    <>
      <span className="pp-staff-queue-done">{label}</span>
      {at !== null && (
        <span className="pp-staff-queue-minor">{by === null ? queueTime(at, locale) : byText(queueTime(at, locale), by)}</span>
      )}
      {note !== null && <span className="pp-staff-queue-note">{note}</span>}
    </>
  );
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
