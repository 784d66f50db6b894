import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { Button } from './button';
import './modal-dialog.css';

interface ModalDialogProps {
  title: string;
  children: ReactNode;
  /** The dialog's buttons. */
  actions: ReactNode;
  /** Escape closes the dialog through this (omit for dialogs that need an explicit answer). */
  onDismiss?: () => void;
  role?: 'dialog' | 'alertdialog';
  /** Wider dialogs for reading (consent forms). */
  wide?: boolean;
  /** The id of the text that says what the dialog is about (aria-describedby). */
  describedBy?: string;
  /** An extra class on the dialog, for an area's own look. */
  className?: string;
}

/**
 * Opens a native <dialog> as a modal when it mounts and closes it when it unmounts. Focus then
 * goes back to the element that had it, decided once the page has rendered the outcome
 * (observers may commit after the dialog closes): back to the button that opened it, or, when
 * that is gone (a cancelled booking offers no Cancel), to the page's outcome line or its main
 * area; never away from a new focus.
 */
export function useModalDialog(ref: RefObject<HTMLDialogElement | null>): void {
  useEffect(() => {
    const dialog = ref.current;
    const active = document.activeElement;
    const previous = active instanceof HTMLElement && active !== document.body ? active : null;
    if (dialog && !dialog.open) {
      // jsdom and very old browsers have no showModal(); the open attribute still shows it.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      // The browser focuses the first button; an alertdialog may ask for its least destructive one instead.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => {
      if (dialog?.open && typeof dialog.close === 'function') dialog.close();
      setTimeout(() => {
        // Another dialog opened in its place (confirmation, then reason): it has the focus.
        if (document.querySelector('dialog[open]')) return;
        const now = document.activeElement;
        if (now !== null && now !== document.body) return;
        if (previous?.isConnected) previous.focus();
        else (document.querySelector<HTMLElement>('[data-dialog-return]') ?? document.querySelector<HTMLElement>('main'))?.focus();
      }, 0);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * The portal's modal dialog, on the native <dialog> element: the browser traps focus, makes the
 * page behind inert and closes on Escape, with no modal library on the page (booking, appointment
 * and booking-request pages all use it). Mount it to open it; focus returns to where it was when
 * it unmounts. A button marked data-autofocus gets the focus when it opens.
 */
export function ModalDialog({
  title,
  children,
  actions,
  onDismiss,
  role = 'dialog',
  wide = false,
  describedBy,
  className,
}: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useModalDialog(ref);

  return (
    <dialog
      ref={ref}
      className={['pp-dialog', wide ? 'pp-dialog-wide' : '', className ?? ''].filter(Boolean).join(' ')}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
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

interface MessageDialogProps {
  title: string;
  children: ReactNode;
  closeText: string;
  /** Close and Escape. */
  onClose?: () => void;
  /** alertdialog (default) for a problem or a refusal, dialog for information. */
  role?: 'dialog' | 'alertdialog';
}

/** A dialog with one Close button: a message the patient acknowledges. */
export function MessageDialog({ title, children, closeText, onClose, role = 'alertdialog' }: MessageDialogProps) {
  return (
    <ModalDialog role={role} title={title} onDismiss={onClose} actions={<Button onClick={onClose}>{closeText}</Button>}>
      {children}
    </ModalDialog>
  );
}

interface ConfirmDialogProps {
  title: string;
  /** The question, one paragraph. */
  text: string;
  yes: string;
  no: string;
  onYes: () => void;
  /** No, Escape: nothing happens. */
  onNo: () => void;
  /** Yes is disabled while the answer is being carried out. */
  busy?: boolean;
  /** Yes destroys something (cancel a booking): shown in the danger colour. */
  danger?: boolean;
}

/** The yes/no confirmation: a question with Yes and No. */
export function ConfirmDialog({ title, text, yes, no, onYes, onNo, busy = false, danger = false }: ConfirmDialogProps) {
  return (
    <ModalDialog
      role="alertdialog"
      title={title}
      onDismiss={onNo}
      actions={
        <>
          <Button variant={danger ? 'danger' : 'primary'} disabled={busy} onClick={onYes}>
            {yes}
          </Button>
          <Button variant="secondary" onClick={onNo}>
            {no}
          </Button>
        </>
      }
    >
      <p>{text}</p>
    </ModalDialog>
  );
}
