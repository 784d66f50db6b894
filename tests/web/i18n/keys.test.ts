import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '@contract/api/config';

// A string, not new URL(): under jsdom the global URL is jsdom's, which fileURLToPath rejects.
const SRC_WEB = join(dirname(fileURLToPath(import.meta.url)), '../../../src-web');
const LOCALES = join(SRC_WEB, 'i18n', 'locales');

type Catalogue = { [key: string]: string | Catalogue };

/** Deep merge of catalogue files (a later file's leaves win). */
function merge(into: Catalogue, from: Catalogue): Catalogue {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    into[key] = typeof value === 'object' && typeof existing === 'object' ? merge({ ...existing }, value) : value;
  }
  return into;
}

/** A locale's catalogue: translation.json and the catalogues loaded with their pages (self-service.json). */
function readCatalogue(locale: string): Catalogue {
  const dir = join(LOCALES, locale);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort((a, b) => (a === 'translation.json' ? -1 : b === 'translation.json' ? 1 : a.localeCompare(b)));
  return files.reduce<Catalogue>((all, name) => merge(all, JSON.parse(readFileSync(join(dir, name), 'utf8'))), {});
}

/** Every leaf of a catalogue as 'a.b.c' -> text. */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const leaves = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') leaves.set(path, value);
    else for (const [leaf, text] of flatten(value, path)) leaves.set(leaf, text);
  }
  return leaves;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

interface TCall {
  file: string;
  line: number;
  key: string | null;
}

/** Finds every t(…) and x.t(…) call and its first argument, if that is a string literal. */
export function findTCalls(fileName: string, source: string): TCall[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const calls: TCall[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isT = (ts.isIdentifier(callee) && callee.text === 't') || (ts.isPropertyAccessExpression(callee) && callee.name.text === 't');
      if (isT) {
        const first = node.arguments[0];
        const literal = first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) ? first.text : null;
        calls.push({ file: fileName, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, key: literal });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}

const en = flatten(readCatalogue('en'));
const calls = sourceFiles(SRC_WEB).flatMap((path) => findTCalls(relative(SRC_WEB, path), readFileSync(path, 'utf8')));

describe('translation keys in src-web', () => {
  it('should find the shell strings (the scan is not empty)', () => {
    expect(calls.length).toBeGreaterThan(80);
  });

  it('should only call t() with a literal key', () => {
    const dynamic = calls.filter((call) => call.key === null).map((call) => `${call.file}:${call.line}`);
    expect(dynamic).toEqual([]);
  });

  it('should only use keys that exist in the English catalogue', () => {
    const unknown = calls.filter((call) => call.key !== null && !en.has(call.key)).map((call) => `${call.file}:${call.line} ${call.key}`);
    expect(unknown).toEqual([]);
  });

  it('should use the agreed message keys as given', () => {
    const used = new Set(calls.map((call) => call.key));
    for (const key of ['message.loading', 'message.access_read_only', 'action.close', 'message.max_attempts_reached_shared']) {
      expect(used.has(key)).toBe(true);
    }
    for (const key of ['message.inactivity_text', 'action.home', 'action.cancel']) expect(en.has(key)).toBe(true);
  });

  it('should catch a non-literal or unknown key (the scanner works)', () => {
    const planted = findTCalls('x.tsx', "const a = t(key); const b = i18n.t(`x.${y}`); const c = t('nope.missing'); const d = t(`ok`);");
    expect(planted.map((call) => call.key)).toEqual([null, null, 'nope.missing', 'ok']);
  });
});

describe('catalogues', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

  it.each(SUPPORTED_LOCALES.filter((locale) => locale !== 'en'))(
    'should only override English keys, with the same placeholders, in %s',
    (locale) => {
      const catalogue = flatten(readCatalogue(locale));
      expect(catalogue.size).toBeGreaterThan(0);
      for (const [key, text] of catalogue) {
        expect(en.has(key), `${locale}: ${key} is not in en`).toBe(true);
        expect(placeholders(text), `${locale}: ${key}`).toEqual(placeholders(en.get(key) ?? ''));
      }
    },
  );

  it('should translate every English key into Macedonian', () => {
    const mk = flatten(readCatalogue('mk'));
    const missing = [...en.keys()].filter((key) => !mk.has(key));
    expect(missing).toEqual([]);
    const untranslated = [...en.entries()].filter(
      ([key, text]) => mk.get(key) === text && /[a-z]{3}/i.test(text.replace(/\{\{\w+\}\}/g, '')),
    );
    expect(untranslated.map(([key]) => key)).toEqual([]);
  });
});
