import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Catalogue = { [key: string]: string | Catalogue };

const english: Catalogue = JSON.parse(
  readFileSync(join(process.cwd(), 'src-web', 'i18n', 'locales', 'en', 'translation.json'), 'utf8'),
);

/**
 * The English text for a translation key, read from the web app's own catalogue so the
 * journeys follow the wording instead of duplicating it. Interpolations are filled from `values`.
 */
export function t(key: string, values: Record<string, string | number> = {}): string {
  let node: string | Catalogue | undefined = english[key];
  if (node === undefined) {
    node = english;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  }
  if (typeof node !== 'string') throw new Error(`No English text for translation key '${key}'`);
  return node.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}
