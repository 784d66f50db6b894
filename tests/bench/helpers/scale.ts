// Smoke mode (`npm run bench -- --smoke`, or BENCH_SMOKE=1 for one script): every benchmark runs
// on tiny data with few iterations, to prove in CI that it runs to the end; its timings are not
// judged (helpers/stats.ts checks that every measurement exists instead). The scripts pick their
// sizes through sized() only, so the mode is decided here and nowhere else.

/** True in a smoke run (run.ts sets BENCH_SMOKE=1 for every script it starts with --smoke). */
export const smoke = process.env.BENCH_SMOKE === '1';

/** The benchmark's real size, or the tiny one of a smoke run. */
export function sized<T>(full: T, tiny: T): T {
  return smoke ? tiny : full;
}
