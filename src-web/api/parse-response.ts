import type { z } from 'zod';
import { ApiError } from './client';

/**
 * Validates a response body against its contract schema. A body that does not match is a
 * server/client version skew, reported as an ApiError rather than crashing a component later.
 */
export function parseResponse<S extends z.ZodType>(path: string, schema: S, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const where = first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'invalid body';
  return fail(path, where);
}

function fail(path: string, where: string): never {
  throw new ApiError('http', 200, 'internal_error', `Unexpected response from ${path} (${where})`);
}
