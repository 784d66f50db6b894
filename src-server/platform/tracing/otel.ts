import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../../config-tracing';
import type { QueryTracer } from './query-scope';
import { spanNameOf, statementName } from './statement-name';

/**
 * The only file that imports OpenTelemetry; register-tracing.ts loads it with import() when an
 * OTLP endpoint is configured (docs/operations.md#traces). Spans carry the attributes set here and
 * nothing else: no URL, query string, header, body, statement text or parameter.
 *
 * Nothing is registered globally (no global tracer provider or context manager): a request's
 * statements find its span through query-scope.ts, so several servers in one process (the tests)
 * keep their own traces.
 */

export interface RequestSpan {
  /** Runs one statement as a child span (query-scope.ts). */
  readonly query: QueryTracer;
  /** Ends the span with the answer's status; later calls do nothing. */
  end(statusCode: number | null): void;
}

export interface RequestTracer {
  /**
   * A server span named by the route pattern, never the URL; route null: no route matched (pages,
   * unknown paths). `parent` holds the request's W3C `traceparent` and `tracestate` headers: a
   * valid traceparent makes the span a child of the caller's (a proxy's or another service's),
   * anything else starts a trace of its own.
   */
  startRequest(method: string, route: string | null, requestId: string, parent: TraceHeaders): RequestSpan;
  /** Sends what is buffered and stops (the server's close). */
  shutdown(): Promise<void>;
}

export interface TraceHeaders {
  traceparent?: string | string[] | undefined;
  tracestate?: string | string[] | undefined;
}

export interface TracerOptions {
  config: TracingConfig;
  serviceVersion: string;
  /** An export failed (first of a run of failures), or worked again after failing. */
  onExportProblem(error: Error | null): void;
}

/** SQLSTATE codes only: a driver's message may quote a value (a duplicate key's e-mail address). */
function errorType(error: unknown): string {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
  return /^[0-9A-Z]{5}$/.test(code) ? code : 'error';
}

function queryTracer(tracer: Tracer, parent: Context, system: string): QueryTracer {
  return async (sql, run) => {
    const name = statementName(sql);
    const attributes: Record<string, string> = { 'db.system.name': system, 'db.operation.name': name.operation };
    if (name.table !== null) attributes['db.collection.name'] = name.table;
    const span = tracer.startSpan(spanNameOf(name), { kind: SpanKind.CLIENT, attributes }, parent);
    try {
      return await run();
    } catch (error) {
      span.setAttribute('error.type', errorType(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  };
}

function requestSpan(tracer: Tracer, span: Span): RequestSpan {
  let ended = false;
  return {
    query: queryTracer(tracer, trace.setSpan(ROOT_CONTEXT, span), 'postgresql'),
    end(statusCode) {
      if (ended) return;
      ended = true;
      if (statusCode !== null) span.setAttribute('http.response.status_code', statusCode);
      // Server spans are errors for 5xx only; a 4xx is the client's (OpenTelemetry's HTTP conventions).
      if (statusCode === null || statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

const propagator = new W3CTraceContextPropagator();
const headerGetter = {
  keys: (carrier: TraceHeaders) => Object.keys(carrier),
  // A header sent twice is not one caller's context: it is ignored, as a malformed one is.
  get: (carrier: TraceHeaders, key: string) => {
    const value = carrier[key as keyof TraceHeaders];
    return typeof value === 'string' ? value : undefined;
  },
};

/** Tells of the first failed export of a run, and of the next that works, not of every batch. */
function reportingExporter(exporter: SpanExporter, report: (error: Error | null) => void): SpanExporter {
  let failing = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        const failed = result.code !== 0;
        if (failed !== failing) report(failed ? (result.error ?? new Error('the OTLP export failed')) : null);
        failing = failed;
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

export function createRequestTracer({ config, serviceVersion, onExportProblem }: TracerOptions): RequestTracer {
  const exporter = reportingExporter(new OTLPTraceExporter({ url: config.url }), onExportProblem);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': serviceVersion }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('radiology-portal');
  return {
    startRequest(method, route, requestId, parent) {
      const attributes: Record<string, string> = { 'http.request.method': method, 'portal.request_id': requestId };
      if (route !== null) attributes['http.route'] = route;
      const context = propagator.extract(ROOT_CONTEXT, parent, headerGetter);
      const span = tracer.startSpan(route === null ? method : `${method} ${route}`, { kind: SpanKind.SERVER, attributes }, context);
      return requestSpan(tracer, span);
    },
    shutdown: () => provider.shutdown(),
  };
}
