import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerJobs } from '../../../src-server/platform/jobs';

// The server's background work, declared once (src-server/platform/jobs.ts). Only setInterval is
// faked, so Fastify's own start and close run as they do in production.
describe('the job registry', () => {
  let app: FastifyInstance;
  const warnings: string[] = [];
  /** What the registry told its observer (the metrics' portal_job_runs_total and portal_job_failures_total). */
  const finished: string[] = [];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    warnings.length = 0;
    finished.length = 0;
    app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => warnings.push(JSON.parse(line).msg as string) } } });
    registerJobs(app, (name, failed) => finished.push(`${name} ${failed ? 'failed' : 'ok'}`));
  });
  afterEach(async () => {
    await app.close();
    vi.useRealTimers();
  });

  /** Lets the runs a tick started settle. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Time goes by a second at a time, each second's runs settling before the next. */
  async function pass(ms: number): Promise<void> {
    for (let elapsed = 0; elapsed < ms; elapsed += 1000) {
      vi.advanceTimersByTime(1000);
      await settle();
    }
  }

  it('runs a job every interval from the moment the server is ready, at start only when asked', async () => {
    const runs: string[] = [];
    app.jobs.every(1000, 'a.periodic', async () => void runs.push('periodic'));
    app.jobs.every(5000, 'a.at-start', async () => void runs.push('at-start'), { runAtStart: true });
    vi.advanceTimersByTime(3000);
    expect(runs, 'nothing runs before the server is ready').toEqual([]);
    await app.ready();
    await settle();
    expect(runs).toEqual(['at-start']);
    await pass(2000);
    expect(runs).toEqual(['at-start', 'periodic', 'periodic']);
    expect(app.jobs.list()).toEqual([
      { name: 'a.periodic', everyMs: 1000 },
      { name: 'a.at-start', everyMs: 5000 },
    ]);
  });

  it('never overlaps a run with itself, and a failed run is logged by name and the job goes on', async () => {
    let release: () => void = () => undefined;
    let started = 0;
    app.jobs.every(1000, 'slow.job', () => {
      started += 1;
      return new Promise<void>((resolve) => (release = resolve));
    });
    let failures = 0;
    app.jobs.every(1000, 'failing.job', async () => {
      failures += 1;
      throw new Error('database gone');
    });
    await app.ready();
    await pass(3000);
    expect(started, 'the ticks while it runs are skipped').toBe(1);
    release();
    await settle();
    await pass(1000);
    expect(started).toBe(2);
    release();
    expect(failures).toBe(4);
    expect(warnings.filter((line) => line === '[jobs] failing.job failed')).toHaveLength(4);
  });

  it('leaves out a job whose condition fails on this server', async () => {
    let runs = 0;
    app.jobs.every(1000, 'no.schema', async () => void runs++, { onlyIf: async () => false });
    app.jobs.every(1000, 'broken.check', async () => void runs++, { onlyIf: () => Promise.reject(new Error('no table')) });
    await app.ready();
    vi.advanceTimersByTime(5000);
    await settle();
    expect(runs).toBe(0);
  });

  it('waits for a run in progress when the server closes, then stops the workers', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    app.jobs.every(1000, 'long.job', () =>
      new Promise<void>((resolve) => (release = resolve)).then(() => void events.push('run finished')),
    );
    app.jobs.worker('a.worker', {
      start: () => void events.push('worker started'),
      stop: async () => void events.push('worker stopped'),
    });
    await app.ready();
    expect(events).toEqual(['worker started']);
    vi.advanceTimersByTime(1000);
    const closing = app.close().then(() => void events.push('closed'));
    await settle();
    expect(events).toEqual(['worker started']);
    release();
    await closing;
    expect(events).toEqual(['worker started', 'run finished', 'worker stopped', 'closed']);
  });

  it('tells its observer of each finished run, by name, failed or not', async () => {
    let fail = false;
    app.jobs.every(1000, 'observed.job', async () => {
      if (fail) throw new Error('down');
    });
    await app.ready();
    await pass(2000);
    fail = true;
    await pass(1000);
    expect(finished).toEqual(['observed.job ok', 'observed.job ok', 'observed.job failed']);
  });

  it('refuses a name declared twice, and a job declared once the server is ready', async () => {
    app.jobs.every(1000, 'twice', async () => undefined);
    expect(() => app.jobs.worker('twice', { start: () => undefined, stop: async () => undefined })).toThrow(
      "[jobs] 'twice' is declared twice",
    );
    await app.ready();
    expect(() => app.jobs.every(1000, 'late', async () => undefined)).toThrow("[jobs] 'late' is declared after the server became ready");
  });
});
