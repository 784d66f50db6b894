import type { z } from 'zod';
import type {
  AppConfig,
  BodyFigureConfig,
  BootstrapConfig,
  ContactResponse,
  EnvironmentConfig,
  IntegrationConfig,
  RadiologyConfig,
  ThemeConfig,
} from '@contract/api/config';
import { ApiError, type ApiClient } from './client';
import { parseResponse } from './parse-response';

/**
 * The config contract, loaded with the first call. Importing its schemas statically would put
 * zod (about 24 KB gzipped) into the first screen's bundle, and the first screen gets its
 * configuration from index.html without any of these calls.
 */
type ConfigContract = typeof import('@contract/api/config');
const loadContract = (): Promise<ConfigContract> => import('@contract/api/config');

/** Typed calls of GET /api/config/*; every answer is parsed with its src-contract schema. */
export function createConfigApi(client: ApiClient) {
  async function get<S extends z.ZodType>(path: string, pick: (contract: ConfigContract) => S): Promise<z.infer<S>> {
    const [response, contract] = await Promise.all([client.http.get<unknown>(path), loadContract()]);
    return parseResponse(path, pick(contract), response.data);
  }

  return {
    bootstrap: (): Promise<BootstrapConfig> => get('/api/config/bootstrap', (c) => c.BootstrapConfigSchema),
    app: (): Promise<AppConfig> => get('/api/config/app', (c) => c.AppConfigSchema),
    radiology: (): Promise<RadiologyConfig> => get('/api/config/radiology', (c) => c.RadiologyConfigSchema),
    bodyFigure: (): Promise<BodyFigureConfig> => get('/api/config/body-figure', (c) => c.BodyFigureConfigSchema),
    integration: (): Promise<IntegrationConfig> => get('/api/config/integration', (c) => c.IntegrationConfigSchema),
    theme: (): Promise<ThemeConfig> => get('/api/config/theme', (c) => c.ThemeConfigSchema),
    environment: (): Promise<EnvironmentConfig> => get('/api/config/environment', (c) => c.EnvironmentConfigSchema),
    /** Whether a page on `origin` may embed the portal, so the frame may post it its height (docs/embedding.md). */
    async embedParentAllowed(origin: string): Promise<boolean> {
      const path = '/api/embed/parent-origin';
      const [response, contract] = await Promise.all([
        client.http.get<unknown>(path, { params: { origin } }),
        import('@contract/api/embed'),
      ]);
      return parseResponse(path, contract.EmbedParentOriginResponseSchema, response.data).allowed;
    },
    contact: (): Promise<ContactResponse> => get('/api/config/contact', (c) => c.ContactResponseSchema),
    /** The terms and conditions: sanitised HTML sent as text/plain. */
    async terms(): Promise<string> {
      const response = await client.http.get<unknown>('/api/config/terms', { responseType: 'text' });
      if (typeof response.data === 'string') return response.data;
      throw new ApiError('http', 200, 'internal_error', 'Unexpected response from /api/config/terms (expected text)');
    },
  };
}

export type ConfigApi = ReturnType<typeof createConfigApi>;
