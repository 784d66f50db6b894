// `npm run bench`: runs every benchmark script tests/bench/*.bench.ts in turn, each in its own
// process (each builds its own data and server, so one cannot warm or slow another), and ends
// with the list of goals missed. Each script prints its own table and writes bench-results/<name>.json.
// Pass names to run only some: `npm run bench -- booking`.
//
// `npm run bench -- --smoke` (CI; or BENCH_SMOKE=1): every script on tiny data (helpers/scale.ts),
// timings not judged; a script passes when it ends with every measurement present (helpers/stats.ts).
// Results go to test-results/bench-smoke/; the run ends with one line `N passed, N failed`
// (helpers/smoke-runner.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runSmoke } from './helpers/smoke-runner';

const dir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const only = args.filter((arg) => arg !== '--smoke');
const scripts = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

if (smoke) {
  if (scripts.length === 0) {
    console.error(`no benchmark script matches ${only.join(', ')}`);
    process.exit(1);
  }
  const passed = await runSmoke(dir, scripts).catch((error: unknown) => {
    console.error(error);
    console.log(`0 passed, ${scripts.length} failed`);
    return false;
  });
  process.exit(passed ? 0 : 1);
}

const failed: string[] = [];
for (const script of scripts) {
  console.log(`\n=== bench ${script}`);
  const status = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${script}`], { stdio: 'inherit' }).status;
  if (status !== 0) failed.push(script);
}
console.log(
  `\n${scripts.length - failed.length} of ${scripts.length} benchmark scripts met every goal${failed.length ? `; missed: ${failed.join(', ')}` : ''}`,
);
process.exit(failed.length === 0 ? 0 : 1);
