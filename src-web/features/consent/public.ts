// Re-exports only (docs/web.md#budgets): the site layout imports this lazily, only where analytics is on.
export { ConsentMount } from './consent-mount';
export { CONSENT_STORAGE_KEY, CONSENT_MAX_AGE_MS } from './consent-store';
