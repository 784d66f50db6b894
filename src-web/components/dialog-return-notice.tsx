import type { ReactNode } from 'react';

/**
 * The status line that says what a dialog just did (marked, revoked). A dialog closing after its
 * opener's button is gone hands the focus here (data-dialog-return, components/modal-dialog.tsx).
 */
export function DialogReturnNotice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="pp-notice pp-notice-success" tabIndex={-1} data-dialog-return>
      {children}
    </p>
  );
}
