// Rewrites the environment-variable table in README.md from the declaration in src-server/config-env.ts
// (the rows parseConfig parses with), so the README and the server never disagree:
// `node --import tsx scripts/update-readme-env.ts`.
// tests/server/readme-env.test.ts fails when the README is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ENV_VARIABLES } from '../src-server/config';

export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url));
const START = '<!-- env-table:start -->';
const END = '<!-- env-table:end -->';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function renderEnvTable(): string {
  const rows = ENV_VARIABLES.map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.description)} |`);
  return [START, '| variable | default | what it does |', '|---|---|---|', ...rows, END].join('\n');
}

/** The README with its table replaced by the current one. */
export function withCurrentEnvTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
  return readme.slice(0, start) + renderEnvTable() + readme.slice(end + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(README_PATH, withCurrentEnvTable(readFileSync(README_PATH, 'utf8')));
  console.log('README.md environment table updated');
}
