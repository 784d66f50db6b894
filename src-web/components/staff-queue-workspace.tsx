import type { ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { AntdScope } from './antd-scope';
import { DialogReturnNotice } from './dialog-return-notice';
import type { StaffQueueStore } from './staff-queue-store';
import './staff-queue.css';

/**
 * A staff queue's loaded workspace, the same for every queue (the callbacks, the booking
 * requests): the line saying who was just marked, the table's heading with the open count, then
 * the queue's table and mark dialog (children).
 */
export const StaffQueueWorkspace = observer(function StaffQueueWorkspace<Item>({
  store,
  headingId,
  heading,
  openCount,
  done,
  children,
}: {
  store: StaffQueueStore<Item>;
  /** Names the table (components/named-table.tsx). */
  headingId: string;
  heading: string;
  /** "(3 open)": the open items, also past the server's cap. */
  openCount: (count: number) => string;
  /** The status line after a mark, for the marked person's name. */
  done: (name: string) => string;
  children: ReactNode;
}) {
  return (
    <AntdScope>
      {store.markedName !== null && <DialogReturnNotice>{done(store.markedName)}</DialogReturnNotice>}
      <h2 id={headingId}>
        {heading} <span className="pp-staff-queue-count">({openCount(store.data?.openTotal ?? 0)})</span>
      </h2>
      {children}
    </AntdScope>
  );
});
