/**
 * The malformed requests of malformed-input.test.ts: control characters in each path parameter,
 * query parameter and JSON body string a route declares (its OpenAPI operation), and broken
 * multipart bodies. Every list here is finite, so the fuzz test sends a bounded number of requests.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}

/** Text with control characters: NUL (PostgreSQL refuses it in text), then BEL, ESC and DEL. */
export const BAD_TEXTS = ['a\u0000b', 'a\u0007b\u001b[0m\u007f'] as const;

/** The places a string can sit in a body, as property paths (depth-limited; arrays by their first element). */
function stringPaths(schema: JsonSchema | undefined, path: Array<string | number> = [], depth = 0): Array<Array<string | number>> {
  if (schema === undefined || depth > 4) return [];
  const variants = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const found = variants.flatMap((variant) => stringPaths(variant, path, depth + 1));
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.includes('string')) found.push(path);
  for (const [name, property] of Object.entries(schema.properties ?? {})) found.push(...stringPaths(property, [...path, name], depth + 1));
  // A record (questionnaire answers): a free key holding a string.
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false && schema.properties === undefined)
    found.push([...path, 'fuzz']);
  if (schema.items !== undefined) found.push(...stringPaths(schema.items, [...path, 0], depth + 1));
  const seen = new Set<string>();
  return found.filter((candidate) => {
    const key = JSON.stringify(candidate);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A copy of `body` with `value` at `path` (creating the objects and arrays on the way). */
function withValue(body: unknown, path: Array<string | number>, value: string): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...Array<string | number>];
  if (typeof head === 'number') {
    const list = Array.isArray(body) ? [...(body as unknown[])] : [];
    list[head] = withValue(list[head], rest, value);
    return list;
  }
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  object[head] = withValue(object[head], rest, value);
  return object;
}

export interface MalformedRequest {
  what: string;
  url: string;
  body: object | undefined;
}

/** Every malformed variant of one route's request: path parameters, query parameters, body strings. */
export function mutations(route: {
  method: string;
  url: string;
  pattern: string;
  query: string;
  body: object | undefined;
  operation: Operation | undefined;
  /** Body strings the schema cannot name (inside a record). */
  extra: Array<Array<string | number>>;
}): MalformedRequest[] {
  const requests: MalformedRequest[] = [];
  const [path = '', query = ''] = route.url.split('?', 2);
  const patternParts = route.pattern.split('/');
  const pathParts = path.split('/');
  patternParts.forEach((part, index) => {
    if (!part.startsWith(':')) return;
    for (const bad of BAD_TEXTS) {
      const parts = [...pathParts];
      parts[index] = `${parts[index] ?? ''}${encodeURIComponent(bad)}`;
      requests.push({ what: `path ${part} ${JSON.stringify(bad)}`, url: `${parts.join('/')}${route.query}`, body: route.body });
    }
  });
  const queryNames = (route.operation?.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
  for (const name of queryNames)
    for (const bad of BAD_TEXTS) {
      const params = new URLSearchParams(query);
      params.set(name, bad);
      requests.push({ what: `query ${name} ${JSON.stringify(bad)}`, url: `${path}?${params.toString()}`, body: route.body });
    }
  if (route.body !== undefined) {
    const schema = route.operation?.requestBody?.content?.['application/json']?.schema;
    for (const at of [...stringPaths(schema), ...route.extra])
      for (const bad of BAD_TEXTS)
        requests.push({
          what: `body ${at.join('.')} ${JSON.stringify(bad)}`,
          url: route.url,
          body: withValue(route.body, at, bad) as object,
        });
  }
  return requests;
}

const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW';
const PART_HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;

/** Multipart bodies busboy cannot read: no boundary, a boundary the body never has, a body cut short, a broken part header. */
export const BROKEN_MULTIPART: Record<string, { contentType: string; body: string }> = {
  'multipart without a boundary': { contentType: 'multipart/form-data', body: `${PART_HEAD}%PDF-1.4\r\n--${BOUNDARY}--\r\n` },
  'multipart with an empty boundary': { contentType: 'multipart/form-data; boundary=', body: 'x' },
  'multipart whose body never has its boundary': { contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: 'no parts here' },
  'multipart ending mid-part': { contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: `${PART_HEAD}%PDF-1.4 cut` },
  'multipart with a malformed part header': {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `--${BOUNDARY}\r\nContent-Disposition form-data broken\u0000\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
  },
  'multipart with NUL in a text field': {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="referringDoctor"\r\n\r\nDr\u0000X\r\n${PART_HEAD}%PDF-1.4\r\n--${BOUNDARY}--\r\n`,
  },
};
