import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in OpenTelemetry collector: a real HTTP server that takes OTLP/HTTP JSON posts (what the
 * exporter sends, src-server/platform/tracing/otel.ts) and keeps each body as received.
 */

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number };
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}

interface Payload {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes'> & { attributes?: { key: string; value: AnyValue }[] })[] }[];
  }[];
}

function plain(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  return value.doubleValue ?? '';
}

function attributesOf(list: { key: string; value: AnyValue }[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  readonly url: string;
  /** Every request: its path, content type and body text, as received. */
  readonly requests: { path: string; contentType: string; body: string }[];
  /** The status it answers with; 200 unless a test makes it refuse; 0: it never answers. */
  status: number;
  spans(): ReceivedSpan[];
  resources(): Record<string, string | number | boolean>[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: OtlpReceiver['requests'] = [];
  const answer = { status: 200 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (answer.status !== 0) response.writeHead(answer.status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const payloads = (): Payload[] => requests.map((request) => JSON.parse(request.body) as Payload);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get status() {
      return answer.status;
    },
    set status(status: number) {
      answer.status = status;
    },
    spans: () =>
      payloads().flatMap((payload) =>
        (payload.resourceSpans ?? []).flatMap((resource) =>
          (resource.scopeSpans ?? []).flatMap((scope) =>
            (scope.spans ?? []).map((span) => ({ ...span, attributes: attributesOf(span.attributes) })),
          ),
        ),
      ),
    resources: () =>
      payloads().flatMap((payload) => (payload.resourceSpans ?? []).map((resource) => attributesOf(resource.resource?.attributes))),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
