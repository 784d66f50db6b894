import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, totalmem } from 'node:os';
import { smoke } from './scale';

/** Percentiles of a sample of durations in milliseconds. */
export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarise(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { count: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? NaN) };
}

/** One measured figure against its goal. */
export interface GoalResult {
  name: string;
  engine: string;
  measured: string;
  goal: string;
  met: boolean;
}

/**
 * A smoke run's problems with the measurements: none measured, or a row with no figure or with a
 * figure that is not a number (an empty sample summarises to NaN).
 */
export function missingMeasurements(results: readonly GoalResult[]): string[] {
  if (results.length === 0) return ['no measurement at all'];
  return results
    .filter((r) => !/\d/.test(r.measured) || /\b(NaN|undefined|null|Infinity)\b/.test(r.measured))
    .map((r) => `${r.name} (${r.engine}): measured ${JSON.stringify(r.measured)}`);
}

/**
 * Prints the goals as a table and writes them, with the machine, to bench-results/<name>.json.
 * Answers whether every goal was met; in a smoke run, whether every measurement exists instead,
 * written to test-results/bench-smoke/ so that tiny figures never replace the real ones.
 */
export function report(benchName: string, results: readonly GoalResult[], extra: Record<string, unknown> = {}): boolean {
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    platform: `${platform()} ${arch()}`,
    node: process.version,
  };
  console.table(results.map((r) => ({ goal: r.name, engine: r.engine, measured: r.measured, target: r.goal, met: r.met ? 'yes' : 'NO' })));
  const folder = smoke ? 'test-results/bench-smoke' : 'bench-results';
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    `${folder}/${benchName}.json`,
    `${JSON.stringify({ at: new Date().toISOString(), machine, results, ...extra }, null, 2)}\n`,
  );
  if (!smoke) return results.every((r) => r.met);
  const missing = missingMeasurements(results);
  for (const problem of missing) console.error(`smoke: ${problem}`);
  return missing.length === 0;
}
