import { makeAutoObservable } from 'mobx';
import { UPLOAD_FIRST_DEBOUNCE_MS, UPLOAD_NEXT_DEBOUNCE_MS } from './chat-constants';

export type QueuedFileStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** One picked file, as the conversation shows it. */
export class QueuedFile {
  status: QueuedFileStatus = 'queued';
  percent = 0;
  /** The refusal in words (the server's, or the client's check). */
  problem: string | null = null;

  constructor(
    readonly id: number,
    readonly file: File,
  ) {
    makeAutoObservable(this, { id: false, file: false });
  }

  update(status: QueuedFileStatus, percent: number, problem: string | null = null): void {
    this.status = status;
    this.percent = percent;
    this.problem = problem;
  }
}

export interface UploadQueueDeps {
  /** Sends one file; rejects with the reason in words. */
  send(file: File, onProgress: (percent: number) => void): Promise<void>;
  /** After a batch went (each file sent or failed). */
  onBatchDone(files: readonly QueuedFile[]): void;
}

/**
 * The spec's upload queue (uploadQueue, uploadCounter): picked files wait, and go together
 * UPLOAD_FIRST_DEBOUNCE_MS after the first pick or UPLOAD_NEXT_DEBOUNCE_MS after a further
 * pick (whichever comes later), one after the other.
 */
export class ChatUploadQueue {
  /** Files picked and not yet sent. */
  queue: QueuedFile[] = [];
  /** Files of this conversation so far (numbers their lines). */
  uploadCounter = 0;
  sending = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dueAt = 0;

  constructor(
    private readonly deps: UploadQueueDeps,
    private readonly now: () => number = () => Date.now(),
  ) {
    makeAutoObservable<this, 'deps' | 'now' | 'timer' | 'dueAt'>(this, { deps: false, now: false, timer: false, dueAt: false });
  }

  /** Queues the files and (re)starts the wait; returns their lines. */
  add(files: readonly File[]): QueuedFile[] {
    const added = files.map((file) => new QueuedFile(++this.uploadCounter, file));
    const first = this.queue.length === 0;
    this.queue.push(...added);
    const wait = first ? UPLOAD_FIRST_DEBOUNCE_MS : UPLOAD_NEXT_DEBOUNCE_MS;
    // A further pick never sends earlier than the first pick's wait would.
    const dueAt = Math.max(first ? 0 : this.dueAt, this.now() + wait);
    this.schedule(dueAt);
    return added;
  }

  /** Files picked but not sent (a conversation restarted or closed for good). */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }

  private schedule(dueAt: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.dueAt = dueAt;
    this.timer = setTimeout(() => void this.flush(), Math.max(0, dueAt - this.now()));
  }

  /** Sends the waiting files now (a batch still going: they follow it). */
  async flush(): Promise<void> {
    this.timer = null;
    if (this.sending) return;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    this.setSending(true);
    try {
      for (const item of batch) await this.sendOne(item);
    } finally {
      this.setSending(false);
    }
    this.deps.onBatchDone(batch);
    // Picked while the batch went: they wait their own debounce already, or go now.
    if (this.queue.length > 0 && this.timer === null) await this.flush();
  }

  private setSending(value: boolean): void {
    this.sending = value;
  }

  private async sendOne(item: QueuedFile): Promise<void> {
    item.update('sending', 0);
    try {
      await this.deps.send(item.file, (percent) => item.update('sending', percent));
      item.update('sent', 100);
    } catch (error) {
      item.update('failed', item.percent, error instanceof Error ? error.message : String(error));
    }
  }
}
