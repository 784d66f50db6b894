import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { escapeHtml } from '../index-html';

/**
 * The OpenAPI 3 document, generated from the same src-contract zod schemas that validate and
 * serialise each route, at /api/docs/json; and /api/docs, a plain list of the operations that
 * needs no script (the CSP allows none inline) and no third-party UI bundle.
 */

/** Registers the generator. Call before any route, so its onRoute hook sees them all. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Radiology patient portal API',
        description: 'The API the portal web app, embedded frame and kiosk call. Errors are { code, message, details? }.',
        version,
      },
    },
    // Each operation says who may call it (x-access: the route's declared access, route-access.ts).
    transform: (input) => {
      const output = jsonSchemaTransform(input);
      const access = input.route.config?.access;
      return access === undefined ? output : { ...output, schema: { ...output.schema, 'x-access': access } };
    },
  });
}

/** Who may call an operation, in words for the docs page. */
export function describeAccess(access: unknown): string {
  if (typeof access === 'string') return access;
  if (isRecord(access) && Array.isArray(access.roles)) return `staff session: ${access.roles.join(', ')}`;
  if (isRecord(access) && access.kind === 'fhir-scope') return `FHIR scope: ${String(access.resource)} ${String(access.interaction)}`;
  return '';
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  method: string;
  path: string;
  summary: string;
  tags: string[];
  access: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Operations of an OpenAPI document, in path order. */
export function listOperations(document: unknown): Operation[] {
  const operations: Operation[] = [];
  if (!isRecord(document) || !isRecord(document.paths)) return operations;
  for (const [path, item] of Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b))) {
    if (!isRecord(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        summary: typeof operation.summary === 'string' ? operation.summary : '',
        tags: Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : [],
        access: describeAccess(operation['x-access']),
      });
    }
  }
  return operations;
}

function renderDocsPage(document: unknown, nonce: string): string {
  const rows = listOperations(document)
    .map(
      (operation) =>
        `<tr><td><code>${escapeHtml(operation.method)}</code></td><td><code>${escapeHtml(operation.path)}</code></td>` +
        `<td>${escapeHtml(operation.summary)}</td><td>${escapeHtml(operation.access)}</td><td>${escapeHtml(operation.tags.join(', '))}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Portal API operations</title>
<style nonce="${escapeHtml(nonce)}">
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2937; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid #d1d5db; vertical-align: top; }
code { font-size: 0.95em; }
</style>
</head>
<body>
<h1>Portal API operations</h1>
<p>The full OpenAPI 3 document: <a href="/api/docs/json">/api/docs/json</a>.</p>
<table>
<thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Summary</th><th scope="col">Who may call</th><th scope="col">Tags</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}

/** The two documentation routes; hidden from the document they serve. */
export function registerApiDocsRoutes(app: FastifyInstance): void {
  app.get('/api/docs/json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  app.get('/api/docs', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').send(renderDocsPage(app.swagger(), request.cspNonce)),
  );
}
