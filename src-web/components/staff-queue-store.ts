import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError } from '../api/client';
import { staffLoadProblemOf, type StaffLoadProblem } from '../api/staff-load-problem';
import { Loader, type LoadState } from '../platform/load-state';

/** Why marking failed: the server's words (409 someone else did, 404, 400), or no answer. */
export type MarkProblem = { kind: 'server'; message: string } | { kind: 'unavailable' };

/** A queue the server orders (open first), with the number of open items also past its cap. */
export interface StaffQueueList<Item> {
  items: Item[];
  openTotal: number;
}

export interface StaffQueueApi<Item, List extends StaffQueueList<Item>> {
  list(): Promise<List>;
  /** Marks one item done with the staff member's note ('' for none); `action` names how, in a queue with more than one ('' otherwise). */
  mark(item: Item, note: string, action: string): Promise<void>;
}

/**
 * A staff work queue (the callback queue, the booking requests): the list as the server orders
 * it, and one "mark done" dialog with an optional note. The server decides the order and who
 * may mark; a 409 (someone else marked it meanwhile) reloads the list.
 */
export class StaffQueueStore<Item, List extends StaffQueueList<Item> = StaffQueueList<Item>> {
  data: List | null = null;
  readonly loader = new Loader();
  problem: StaffLoadProblem | null = null;
  /** The item whose dialog is open. */
  marking: Item | null = null;
  /** How the dialog's item is marked, in a queue with more than one way (the screening reviews' approve and decline). */
  markAction = '';
  note = '';
  busy = false;
  markProblem: MarkProblem | null = null;
  /** Who the last marked item was about (the status line after the dialog). */
  markedName: string | null = null;

  constructor(
    private readonly api: StaffQueueApi<Item, List>,
    private readonly options: { noteMax: number; nameOf(item: Item): string },
  ) {
    makeAutoObservable<this, 'api' | 'options'>(this, { api: false, options: false, loader: false });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** Loaded at least once: the table may show (components/staff-table-page.tsx). */
  get loaded(): boolean {
    return this.data !== null;
  }

  async load(): Promise<void> {
    this.problem = null;
    await this.loader.run(() => this.api.list(), {
      loaded: (data) => (this.data = data),
      failed: (error) => {
        this.problem = staffLoadProblemOf(error);
      },
    });
  }

  openMark(item: Item, action = ''): void {
    this.marking = item;
    this.markAction = action;
    this.note = '';
    this.markProblem = null;
    this.markedName = null;
  }

  cancelMark(): void {
    this.marking = null;
    this.markProblem = null;
  }

  setNote(value: string): void {
    this.note = value.slice(0, this.options.noteMax);
  }

  /** Marks the dialog's item, then reloads the queue (the row moves among the done ones). */
  async confirmMark(): Promise<void> {
    const item = this.marking;
    if (item === null || this.busy) return;
    this.busy = true;
    this.markProblem = null;
    try {
      await this.api.mark(item, this.note.trim(), this.markAction);
      // The queue is reloaded before the dialog closes: its row's button is gone by then, so the
      // focus goes to the status line that says what happened (data-dialog-return).
      await this.load();
      runInAction(() => {
        this.marking = null;
        this.markedName = this.options.nameOf(item);
      });
    } catch (error) {
      runInAction(() => {
        if (error instanceof ApiError && error.kind === 'http' && (error.status === 401 || error.status === 403)) {
          this.marking = null;
          this.problem = staffLoadProblemOf(error);
          this.loader.set('error');
          return;
        }
        this.markProblem =
          error instanceof ApiError && error.kind === 'http' && error.status >= 400 && error.status < 500
            ? { kind: 'server', message: error.message }
            : { kind: 'unavailable' };
      });
      // Someone else may have marked it meanwhile (409): the queue shows it.
      if (error instanceof ApiError && error.status === 409) await this.load();
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  dispose(): void {
    this.loader.dispose();
  }
}
