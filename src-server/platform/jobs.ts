import type { FastifyInstance } from 'fastify';

/**
 * The server's background work, declared once (docs/server.md#background-work):
 *
 *   app.jobs.every(60_000, 'booking.expired-holds', () => bookingService.sweepExpiredHolds());
 *   app.jobs.worker('outbox.mail', outboxWorker);
 *
 * Everything starts when the server becomes ready and stops when it closes, waiting for a run in
 * progress, so the database is never closed under one. A periodic job never overlaps itself (a
 * tick while it runs is skipped), and a failed run is logged as a warning naming the job and
 * never stops it.
 */

export interface PeriodicJobOptions {
  /** Also run once as soon as the server is ready, not only after the first interval. */
  runAtStart?: boolean;
  /** Checked once when the server becomes ready; false: the job does not run on this server (a database without its schema). */
  onlyIf?: () => Promise<boolean>;
}

/** A long-running loop with its own pace (an outbox's polling and back-off). */
export interface Worker {
  start(): void;
  stop(): Promise<void>;
}

export interface DeclaredJob {
  name: string;
  /** The interval of a periodic job; null for a worker, which keeps its own pace. */
  everyMs: number | null;
}

export interface JobRegistry {
  every(everyMs: number, name: string, run: () => Promise<unknown>, options?: PeriodicJobOptions): void;
  worker(name: string, worker: Worker): void;
  /** What is declared, in order. */
  list(): readonly DeclaredJob[];
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly jobs: JobRegistry;
  }
}

interface PeriodicJob extends PeriodicJobOptions {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

/**
 * Registers app.jobs; call it before the modules, which declare their jobs as they register.
 * `finished` hears of each periodic run's end (the metrics: platform/metrics).
 */
export function registerJobs(app: FastifyInstance, finished?: (name: string, failed: boolean) => void): void {
  const periodic: PeriodicJob[] = [];
  const workers: Array<{ name: string; worker: Worker }> = [];
  const declared: DeclaredJob[] = [];
  let ready = false;

  const declare = (name: string, everyMs: number | null): void => {
    if (declared.some((job) => job.name === name)) throw new Error(`[jobs] '${name}' is declared twice`);
    if (ready) throw new Error(`[jobs] '${name}' is declared after the server became ready`);
    declared.push({ name, everyMs });
  };

  const tick = (job: PeriodicJob): void => {
    if (job.running !== undefined) return;
    job.running = job
      .run()
      .then(() => finished?.(job.name, false))
      .catch((error: unknown) => {
        app.log.warn({ err: error, job: job.name }, `[jobs] ${job.name} failed`);
        finished?.(job.name, true);
      })
      .finally(() => {
        job.running = undefined;
      });
  };

  app.decorate('jobs', {
    every(everyMs, name, run, options = {}) {
      declare(name, everyMs);
      periodic.push({ name, everyMs, run, ...options });
    },
    worker(name, worker) {
      declare(name, null);
      workers.push({ name, worker });
    },
    list: () => declared,
  } satisfies JobRegistry);

  app.addHook('onReady', async () => {
    ready = true;
    for (const job of periodic) {
      if (job.onlyIf !== undefined && !(await job.onlyIf().catch(() => false))) continue;
      job.timer = setInterval(() => tick(job), job.everyMs);
      job.timer.unref();
      if (job.runAtStart === true) tick(job);
    }
    for (const { worker } of workers) worker.start();
  });

  app.addHook('onClose', async () => {
    for (const job of periodic) clearInterval(job.timer);
    await Promise.all(periodic.map((job) => job.running));
    for (const { worker } of workers) await worker.stop();
  });
}
