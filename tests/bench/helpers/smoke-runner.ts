// The smoke run of run.ts (`npm run bench -- --smoke`): every script with BENCH_SMOKE=1, two at a
// time (timings are not judged, so scripts may share the machine), each one's output printed
// whole when it ends so that two never interleave. A script passes when it exits 0: it ran to
// the end and every measurement exists (helpers/stats.ts); it fails on an exception, a missing
// measurement, or when it runs past SCRIPT_TIMEOUT_MS.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

const SCRIPT_TIMEOUT_MS = 180_000;
const PARALLEL = Math.max(1, Math.min(2, availableParallelism()));
/** The slowest scripts start first, so that none of them runs alone at the end. */
const SLOWEST = ['warm-start.bench.ts'];

interface Outcome {
  script: string;
  passed: boolean;
  why: string;
}

const running = new Set<ChildProcess>();

/** Kills a script with whatever it started (warm-start's servers): each script leads its own process group. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function runOne(dir: string, script: string): Promise<Outcome> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', `${dir}${script}`], {
    env: { ...process.env, BENCH_SMOKE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, SCRIPT_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const passed = code === 0;
      const why = timedOut ? `timed out after ${SCRIPT_TIMEOUT_MS / 1000} s` : passed ? 'passed' : (signal ?? `exit code ${code}`);
      process.stdout.write(`\n=== bench ${script} (smoke)\n${Buffer.concat(output).toString()}`);
      console.log(`--- ${script}: ${passed ? 'passed' : `FAILED (${why})`} in ${seconds} s`);
      resolve({ script, passed, why });
    });
  });
}

/** Runs the scripts, PARALLEL at a time; answers whether all passed, after the one-line tally. */
export async function runSmoke(dir: string, scripts: readonly string[]): Promise<boolean> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const child of running) killGroup(child);
      process.exit(1);
    });
  }
  // The website and server are built once, before any script, so two scripts never build them at once.
  const { ensureBuilt } = (await import(new URL('../../../scripts/start.mjs', import.meta.url).href)) as { ensureBuilt(): Promise<void> };
  const started = performance.now();
  await ensureBuilt();
  const queue = [...scripts.filter((script) => SLOWEST.includes(script)), ...scripts.filter((script) => !SLOWEST.includes(script))];
  const outcomes: Outcome[] = [];
  const worker = async (): Promise<void> => {
    for (let script = queue.shift(); script !== undefined; script = queue.shift()) outcomes.push(await runOne(dir, script));
  };
  const parallel = Math.min(PARALLEL, scripts.length);
  await Promise.all(Array.from({ length: parallel }, worker));
  const failed = outcomes.filter((outcome) => !outcome.passed);
  console.log(
    `\nbench smoke: ${scripts.length} scripts, ${parallel} at a time, in ${((performance.now() - started) / 1000).toFixed(1)} s` +
      (failed.length ? `; failed: ${failed.map((outcome) => `${outcome.script} (${outcome.why})`).join(', ')}` : ''),
  );
  console.log(`${scripts.length - failed.length} passed, ${failed.length} failed`);
  return failed.length === 0;
}
