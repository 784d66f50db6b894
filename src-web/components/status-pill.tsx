import type { ReactNode } from 'react';
import './status-pill.css';

/** How a status reads at a glance: still on (blue), settled well (green), ended (red). */
export type StatusTone = 'live' | 'good' | 'ended';

/** A record's status as a coloured pill, its words beside the colour (colour alone says nothing to some). */
export function StatusPill({ tone, testId, children }: { tone: StatusTone; testId: string; children: ReactNode }) {
  return (
    <span className={`pp-status-pill pp-status-pill-${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}
