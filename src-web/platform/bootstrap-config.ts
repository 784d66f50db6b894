import type { BootstrapConfig } from '@contract/api/config';

const SECTIONS = ['app', 'radiology', 'bodyFigure', 'integration', 'theme', 'environment'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural check of the bootstrap configuration (its sections are present). */
function isBootstrapConfig(value: unknown): value is BootstrapConfig {
  return isRecord(value) && SECTIONS.every((section) => isRecord(value[section]));
}

/**
 * The configuration the server injected into index.html (#portal-config), so the first
 * render needs no request. Null when absent (vite dev server) or malformed; the caller then
 * asks GET /api/config/bootstrap, which is parsed with the full contract schema.
 *
 * The server renders this block from the same contract schema it validated at start, so a
 * structural check is enough here; parsing it with zod would put zod (about 24 KB gzipped)
 * on the booking home's critical path (docs/web.md#budgets).
 */
export function readEmbeddedConfig(doc: Document): BootstrapConfig | null {
  const script = doc.getElementById('portal-config');
  if (!script?.textContent) return null;
  try {
    const parsed: unknown = JSON.parse(script.textContent);
    if (isBootstrapConfig(parsed)) return parsed;
    console.warn('[bootstrap] #portal-config does not match the contract; loading it from the API');
  } catch {
    console.warn('[bootstrap] #portal-config is not JSON; loading it from the API');
  }
  return null;
}

/** The per-response CSP nonce the server put into meta[name=csp-nonce], for antd's runtime styles. */
export function readCspNonce(doc: Document): string | undefined {
  const meta = doc.querySelector('meta[name="csp-nonce"]');
  return meta?.getAttribute('content') || undefined;
}
