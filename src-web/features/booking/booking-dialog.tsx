import { useEffect, useId, useRef, type ReactNode } from 'react';

interface BookingDialogProps {
  title: string;
  children: ReactNode;
  /** The dialog's buttons. */
  actions: ReactNode;
  /** Escape closes the dialog through this (omit for dialogs that need an explicit answer). */
  onDismiss?: () => void;
  role?: 'dialog' | 'alertdialog';
}

/**
 * A modal dialog on the native <dialog> element: the browser traps focus, makes the page
 * behind inert and closes on Escape, with no modal library on the page. Mount it to open it;
 * focus returns to where it was when it unmounts.
 */
export function BookingDialog({ title, children, actions, onDismiss, role = 'dialog' }: BookingDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) {
      // jsdom and very old browsers have no showModal(); the open attribute still shows it.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    return () => {
      if (dialog?.open && typeof dialog.close === 'function') dialog.close();
      previous?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="pp-dialog"
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onDismiss?.();
      }}
    >
      <h2 id={titleId} className="pp-dialog-title">
        {title}
      </h2>
      <div className="pp-dialog-body">{children}</div>
      <div className="pp-actions">{actions}</div>
    </dialog>
  );
}
