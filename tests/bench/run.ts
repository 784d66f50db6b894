// `npm run bench`: runs every benchmark script tests/bench/*.bench.ts in turn, each in its own
// process (each builds its own data and server, so one cannot warm or slow another), and ends
// with the list of goals missed. Each script prints its own table and writes bench-results/<name>.json.
// Pass names to run only some: `npm run bench -- booking`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const scripts = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

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
