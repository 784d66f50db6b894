import { TranslationOverlaySchema, type ApplicationImage, type TranslationOverlay } from '@contract/api/config';
import type { ApiClient } from './client';
import { parseResponse } from './parse-response';

/** Where the browser loads one of the provider's application images (an <img> src, no request here). */
export function applicationImageUrl(image: ApplicationImage): string {
  return `/api/assets/application/${image}`;
}

/** Typed calls of GET /api/assets/*. */
export function createAssetsApi(client: ApiClient) {
  return {
    /** The provider's translation overlay for one locale ({} when it has none). */
    async translations(lang: string): Promise<TranslationOverlay> {
      const response = await client.http.get<unknown>('/api/assets/translations', { params: { lang } });
      return parseResponse('/api/assets/translations', TranslationOverlaySchema, response.data);
    },
  };
}

export type AssetsApi = ReturnType<typeof createAssetsApi>;
