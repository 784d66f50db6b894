import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One recorded request: what the web client really sent over the wire. */
export interface RecordedRequest {
  method: string;
  url: string;
  cookie: string | undefined;
}

export type RouteHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestApiServer {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const open = new Set<TestApiServer>();

/**
 * A real HTTP server on a free port for the web client to talk to (jsdom's XMLHttpRequest
 * goes over the network). The page's origin differs from the server's, so it answers CORS
 * with credentials like a same-site deployment would allow.
 *
 * @param routes - handlers by "METHOD /path" (the path without the query).
 */
export async function startApiServer(routes: Record<string, RouteHandler>): Promise<TestApiServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const origin = request.headers.origin;
    if (origin) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Vary', 'Origin');
    }
    if (request.method === 'OPTIONS') {
      response.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE');
      response.setHeader('Access-Control-Allow-Headers', String(request.headers['access-control-request-headers'] ?? ''));
      response.writeHead(204).end();
      return;
    }
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: request.method ?? 'GET', url: request.url ?? '/', cookie: request.headers.cookie });
    const handler = routes[`${request.method} ${path}`];
    if (handler) handler(request, response);
    else json(response, 404, { code: 'route_not_found', message: `No route ${request.method} ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('test API server has no TCP address');
  const port = address.port;
  const api: TestApiServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(api);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.add(api);
  return api;
}

/** Closes every server a test started (called after each test by setup.ts). */
export async function closeApiServers(): Promise<void> {
  await Promise.all([...open].map((server) => server.close()));
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

export function text(response: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
  response.writeHead(status, { 'Content-Type': contentType });
  response.end(body);
}

/** A request's JSON body as the fake routes read it; null when it has none. */
export function readJsonBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => resolve(body ? JSON.parse(body) : null));
  });
}

/** A refusal or a held answer for one call, instead of what the fake server would do; `proceed` lets the fake answer after all. */
export type RouteOverride = (request: IncomingMessage, response: ServerResponse, proceed: () => void) => void;

/** The fake's handler for `key`, or the test's override for it when one is set at the time of the call. */
export function overridable(
  overrides: Record<string, RouteOverride>,
  key: string,
  handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
): RouteHandler {
  return (request, response) => {
    const proceed = () => void handler(request, response);
    const override = overrides[key];
    if (override) override(request, response, proceed);
    else proceed();
  };
}
