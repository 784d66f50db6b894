import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TracingConfig } from '../../config-tracing';
import type { RequestSpan } from './otel';
import { runInQueryScope } from './query-scope';

/**
 * OpenTelemetry traces when an OTLP endpoint is configured (docs/operations.md#traces): a server
 * span per request, named by its route pattern, with its database statements as child spans.
 * Without `config` nothing is registered and OpenTelemetry is never loaded, so a start without
 * tracing pays nothing for it.
 */

/** How long a close waits for the last spans to be delivered. */
const SHUTDOWN_WAIT_MS = 3000;

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

export async function registerTracing(app: FastifyInstance, config: TracingConfig | undefined, serviceVersion: string): Promise<void> {
  if (config === undefined) return;
  const { createRequestTracer } = await import('./otel');
  const tracer = createRequestTracer({
    config,
    serviceVersion,
    onExportProblem: (error) => {
      if (error === null) app.log.info('[tracing] spans are delivered to the OTLP endpoint again');
      else app.log.warn({ err: error }, '[tracing] spans could not be delivered to the OTLP endpoint; they are dropped until it answers');
    },
  });
  const spans = new WeakMap<FastifyRequest, RequestSpan>();

  app.addHook('onRequest', (request, _reply, done) => {
    // The route's pattern (/api/appointments/:bookingKey), never request.url: URLs carry booking keys and query strings.
    const method = KNOWN_METHODS.has(request.method) ? request.method : '_OTHER';
    const { traceparent, tracestate } = request.headers;
    const span = tracer.startRequest(method, request.routeOptions.url ?? null, request.id, { traceparent, tracestate });
    spans.set(request, span);
    runInQueryScope(span.query, done);
  });
  // A body is read on the socket's events, outside the scope entered above: enter it again for
  // validation, the handler and what follows.
  app.addHook('preValidation', (request, _reply, done) => {
    const span = spans.get(request);
    if (span === undefined) done();
    else runInQueryScope(span.query, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    spans.get(request)?.end(reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    spans.get(request)?.end(null);
    done();
  });
  // Spans still buffered are sent before the server stops, but a collector that does not answer
  // must not hold a restart for the exporter's 30 s. A refused last batch is already reported
  // (onExportProblem) and must not fail the close.
  app.addHook('onClose', async () => {
    const waited = new AbortController();
    await Promise.race([
      tracer.shutdown().catch(() => undefined),
      sleep(SHUTDOWN_WAIT_MS, undefined, { signal: waited.signal }).catch(() => undefined),
    ]);
    waited.abort();
  });
}
