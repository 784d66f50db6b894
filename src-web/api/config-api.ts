import { z } from 'zod';
import {
  AppConfigSchema,
  BodyFigureConfigSchema,
  BootstrapConfigSchema,
  ContactResponseSchema,
  EnvironmentConfigSchema,
  IntegrationConfigSchema,
  RadiologyConfigSchema,
  ThemeConfigSchema,
} from '@contract/api/config';
import type { ApiClient } from './client';
import { parseResponse } from './parse-response';

/** Typed calls of GET /api/config/*; every answer is parsed with its src-contract schema. */
export function createConfigApi(client: ApiClient) {
  async function get<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
    const response = await client.http.get<unknown>(path);
    return parseResponse(path, schema, response.data);
  }

  return {
    bootstrap: () => get('/api/config/bootstrap', BootstrapConfigSchema),
    app: () => get('/api/config/app', AppConfigSchema),
    radiology: () => get('/api/config/radiology', RadiologyConfigSchema),
    bodyFigure: () => get('/api/config/body-figure', BodyFigureConfigSchema),
    integration: () => get('/api/config/integration', IntegrationConfigSchema),
    theme: () => get('/api/config/theme', ThemeConfigSchema),
    environment: () => get('/api/config/environment', EnvironmentConfigSchema),
    contact: () => get('/api/config/contact', ContactResponseSchema),
    /** The terms and conditions: sanitised HTML sent as text/plain. */
    async terms(): Promise<string> {
      const response = await client.http.get<unknown>('/api/config/terms', { responseType: 'text' });
      return parseResponse('/api/config/terms', z.string(), response.data);
    },
  };
}

export type ConfigApi = ReturnType<typeof createConfigApi>;
