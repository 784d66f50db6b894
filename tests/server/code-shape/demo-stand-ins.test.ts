import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './source-files';

// The demo stand-ins (the identity provider, the RIS receiver, the demo results) load only when
// configured (docs/server.md#demo-stand-ins): the modules a production start loads before any
// configuration is read hold none of them. The demo PACS viewer's routes are the one exception:
// always registered, they open only links this server signed (src-server/dev-pacs/routes.ts).

/** Static value imports (not `import type`, not `import()`) of a file, as repository paths. */
function staticImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(\.{1,2}\/[^']+)';/gms)].map((match) => match[1] ?? '');
  return specifiers.flatMap((specifier) => {
    const base = join(dirname(file), specifier);
    const found = [`${base}.ts`, `${base}/index.ts`].find((candidate) => existsSync(join(ROOT, candidate)));
    return found === undefined ? [] : [relative('.', found)];
  });
}

/** Every file main.ts reaches through static imports. */
function loadedAtStart(): Set<string> {
  const seen = new Set<string>();
  const queue = ['src-server/main.ts'];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}

describe('demo stand-ins', () => {
  it('are not among the modules a server loads at start, but for the demo PACS viewer routes', () => {
    const loaded = [...loadedAtStart()];
    expect(loaded.length).toBeGreaterThan(100);
    expect(loaded).toContain('src-server/app.ts');
    const demo = loaded.filter((file) => /^src-server\/dev-(identity|ris|pacs)\//.test(file)).sort();
    expect(demo).toEqual(['src-server/dev-pacs/routes.ts', 'src-server/dev-pacs/study-images.ts']);
  });
});
