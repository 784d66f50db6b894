import { BootstrapConfigSchema, type BootstrapConfig } from '@contract/api/config';

/**
 * The configuration the server injected into index.html (#portal-config), so the first
 * render needs no request. Null when absent (vite dev server) or not matching the contract;
 * the caller then asks GET /api/config/bootstrap.
 */
export function readEmbeddedConfig(doc: Document): BootstrapConfig | null {
  const script = doc.getElementById('portal-config');
  if (!script?.textContent) return null;
  try {
    const parsed = BootstrapConfigSchema.safeParse(JSON.parse(script.textContent));
    if (parsed.success) return parsed.data;
    console.warn('[bootstrap] #portal-config does not match the contract; loading it from the API', parsed.error.issues[0]);
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
