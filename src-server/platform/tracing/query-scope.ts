import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How a database statement reaches the span of the request it runs for, without the database
 * layer knowing about tracing: the request's hooks run the rest of the request inside a scope
 * (runInQueryScope), and db/connection.ts passes every statement through tracedQuery. Outside a
 * scope (tracing off, background jobs, migrations) a statement just runs. No OpenTelemetry import
 * here: this file loads at every start.
 */

/** Runs one statement as a span of the current request. */
export type QueryTracer = <T>(sql: string, run: () => Promise<T>) => Promise<T>;

const scope = new AsyncLocalStorage<QueryTracer>();

/** Runs `fn` (and everything it starts) with its statements traced by `tracer`. */
export function runInQueryScope<T>(tracer: QueryTracer, fn: () => T): T {
  return scope.run(tracer, fn);
}

/** The statement, as a span when it runs for a traced request. */
export function tracedQuery<T>(sql: string, run: () => Promise<T>): Promise<T> {
  const tracer = scope.getStore();
  return tracer === undefined ? run() : tracer(sql, run);
}
