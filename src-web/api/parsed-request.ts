import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import type { z } from 'zod';
import { parseResponse } from './parse-response';

// The areas' API modules ask through these, so a request names its path once and its answer is
// always checked against the contract (docs/web.md#api-client). A module of its own, apart from
// parse-response.ts, so the booking home's chunk does not carry them.

/** GET `path`; the answer parsed with its contract schema. */
export async function getParsed<S extends z.ZodType>(
  http: AxiosInstance,
  path: string,
  schema: S,
  config?: AxiosRequestConfig,
): Promise<z.infer<S>> {
  return parseResponse(path, schema, (await http.get<unknown>(path, config)).data);
}

/** POST `body` to `path`; the answer parsed with its contract schema. */
export async function postParsed<S extends z.ZodType>(
  http: AxiosInstance,
  path: string,
  schema: S,
  body?: unknown,
  config?: AxiosRequestConfig,
): Promise<z.infer<S>> {
  return parseResponse(path, schema, (await http.post<unknown>(path, body, config)).data);
}
