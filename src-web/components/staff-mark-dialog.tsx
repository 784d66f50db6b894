import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { Button } from './button';
import { ModalDialog } from './modal-dialog';
import type { StaffQueueStore } from './staff-queue-store';

export interface StaffMarkTexts {
  title: string;
  /** What marking means for this item (who to call, what to arrange). */
  text: string;
  note: string;
  counter(used: number, max: number): string;
  cancel: string;
  confirm: string;
  saving: string;
  unavailable: string;
}

/**
 * A staff queue's "mark done" dialog with an optional note (what was agreed, a time booked); the
 * note is kept on the item. The store's item decides the texts (components/staff-queue-store.ts).
 */
export const StaffMarkDialog = observer(function StaffMarkDialog<Item>({
  store,
  noteMax,
  texts,
}: {
  store: StaffQueueStore<Item>;
  noteMax: number;
  texts: (item: Item) => StaffMarkTexts;
}) {
  const noteId = useId();
  const counterId = useId();
  const item = store.marking;
  if (item === null) return null;
  const words = texts(item);
  return (
    <ModalDialog
      title={words.title}
      onDismiss={() => store.cancelMark()}
      actions={
        <>
          <Button variant="secondary" onClick={() => store.cancelMark()}>
            {words.cancel}
          </Button>
          <Button data-autofocus onClick={() => void store.confirmMark()} disabled={store.busy}>
            {store.busy ? words.saving : words.confirm}
          </Button>
        </>
      }
    >
      <p>{words.text}</p>
      <div className="pp-field">
        <label htmlFor={noteId}>{words.note}</label>
        <textarea
          id={noteId}
          className="pp-input"
          rows={3}
          maxLength={noteMax}
          value={store.note}
          aria-describedby={counterId}
          onChange={(event) => store.setNote(event.target.value)}
        />
        <p id={counterId} className="pp-field-hint pp-staff-queue-counter">
          {words.counter(store.note.length, noteMax)}
        </p>
      </div>
      {store.markProblem !== null && (
        <p role="alert" className="pp-notice pp-notice-error">
          {store.markProblem.kind === 'server' ? store.markProblem.message : words.unavailable}
        </p>
      )}
    </ModalDialog>
  );
});
