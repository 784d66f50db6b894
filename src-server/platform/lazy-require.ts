import { createRequire } from 'node:module';

const requireFromHere = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first use instead of at start: a warm start then neither reads
 * nor runs it (survey-core alone is 2.4 MB that registers hundreds of classes when it loads).
 * Only for packages with a CommonJS entry, used by code that must stay synchronous; the package
 * is resolved from node_modules at run time (the server bundle leaves it out).
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireFromHere(name) as T);
}
