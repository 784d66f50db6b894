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
  /** The options passed a `count`, which i18next needs to choose a plural form. */
  counted: boolean;
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
        const options = node.arguments[1];
        const counted =
          !!options &&
          ts.isObjectLiteralExpression(options) &&
          options.properties.some(
            (property) => property.name !== undefined && ts.isIdentifier(property.name) && property.name.text === 'count',
          );
        calls.push({ file: fileName, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, key: literal, counted });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}

const en = flatten(readCatalogue('en'));

/**
 * Plural forms: the key itself holds the "other" form (so the key and any overlay on it keep
 * working) and `key_one`, `key_few`… beside it hold the forms Intl.PluralRules names for a locale.
 */
const PLURAL_SUFFIX = /_(zero|one|two|few|many)$/;
const pluralBase = (key: string): string | null => (PLURAL_SUFFIX.test(key) ? key.replace(PLURAL_SUFFIX, '') : null);
const pluralKeys = new Set([...en.keys()].map(pluralBase).filter((key): key is string => key !== null));
/** A count in front of a word ("{{count}} seconds") needs plural forms; placeholders named for numbers must be `count`. */
const COUNTED_WORD = /\{\{\s*(\w+)\s*\}\}\s+\p{L}/u;
const NUMBER_NAMES = new Set(['count', 'number', 'seconds', 'minutes', 'hours', 'days', 'total']);
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

  it('should pass a count to every key with plural forms', () => {
    expect(pluralKeys.has('appointment.consent.notificationText')).toBe(true);
    const uncounted = calls.filter((call) => call.key !== null && pluralKeys.has(call.key) && !call.counted);
    expect(uncounted.map((call) => `${call.file}:${call.line} ${call.key}`)).toEqual([]);
    const planted = findTCalls('x.tsx', "t('a', { count: n }); t('b', { number: n }); t('c', { count }); t('d');");
    expect(planted.map((call) => call.counted)).toEqual([true, false, true, false]);
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
        const base = pluralBase(key);
        const english = en.get(key) ?? (base !== null && pluralKeys.has(base) ? en.get(base) : undefined);
        expect(english, `${locale}: ${key} is not in en`).toBeDefined();
        expect(placeholders(text), `${locale}: ${key}`).toEqual(placeholders(english ?? ''));
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

describe('plural forms', () => {
  it.each(SUPPORTED_LOCALES)('should give every counted text each plural form %s needs', (locale) => {
    const catalogue = flatten(readCatalogue(locale));
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.filter((category) => category !== 'other');
    const translated = [...pluralKeys].filter(
      (key) => catalogue.has(key) || [...catalogue.keys()].some((leaf) => pluralBase(leaf) === key),
    );
    if (locale === 'en' || locale === 'mk') expect(translated.length).toBeGreaterThan(5);
    for (const key of translated) {
      expect(catalogue.has(key), `${locale}: ${key} (the other form)`).toBe(true);
      for (const category of categories) expect(catalogue.has(`${key}_${category}`), `${locale}: ${key}_${category}`).toBe(true);
    }
  });

  it.each(SUPPORTED_LOCALES)('should not write "(s)" plurals or count a word without plural forms in %s', (locale) => {
    const catalogue = flatten(readCatalogue(locale));
    const wrong = [...catalogue.entries()]
      .filter(([key, text]) => {
        if (/\p{L}\((s|и|e|es)\)/u.test(text)) return true;
        const counted = COUNTED_WORD.exec(text);
        if (!counted || !NUMBER_NAMES.has(counted[1] ?? '')) return false;
        return counted[1] !== 'count' || !pluralKeys.has(pluralBase(key) ?? key);
      })
      .map(([key]) => key);
    expect(wrong).toEqual([]);
  });
});
