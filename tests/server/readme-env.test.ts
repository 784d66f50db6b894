import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README_PATH, renderEnvTable, withCurrentEnvTable } from '../../scripts/update-readme-env';
import { ENV_VARIABLES } from '../../src-server/config';

describe('README environment table', () => {
  it('should list every variable the server reads, with its default (run scripts/update-readme-env.ts)', () => {
    const readme = readFileSync(README_PATH, 'utf8');
    expect(withCurrentEnvTable(readme)).toBe(readme);
    for (const variable of ENV_VARIABLES) expect(readme).toContain(`| \`${variable.name}\` |`);
  });

  it('should escape a pipe inside a description so the table keeps its columns', () => {
    for (const line of renderEnvTable()
      .split('\n')
      .filter((l) => l.startsWith('| `'))) {
      expect(line.split(/(?<!\\)\|/).length).toBe(5);
    }
  });
});
