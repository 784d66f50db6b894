import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, for the code-shape guards that read the sources. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every file under `folder` (relative to the root) ending in one of `extensions`, skipping `excluded` folders. */
export function sourceFiles(folder: string, extensions: readonly string[], excluded: readonly string[] = []): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!excluded.includes(path) && entry.name !== 'node_modules') files.push(...sourceFiles(path, extensions, excluded));
    } else if (extensions.some((extension) => entry.name.endsWith(extension))) {
      files.push(path);
    }
  }
  return files;
}

/** Every `file:line: text` of `files` whose line matches `pattern`. */
export function matchingLines(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}
