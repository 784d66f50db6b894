import type { ApplicationImage, TranslationOverlay } from '@contract/api/config';
import { ApiError, type ApiClient } from './client';

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
      // TranslationOverlaySchema is a record of anything; checked by hand because this call
      // runs before the first render, where zod would cost about 24 KB gzipped.
      const data = response.data;
      if (typeof data === 'object' && data !== null && !Array.isArray(data)) return { ...data };
      throw new ApiError('http', 200, 'internal_error', 'Unexpected response from /api/assets/translations (expected an object)');
    },
  };
}

export type AssetsApi = ReturnType<typeof createAssetsApi>;
