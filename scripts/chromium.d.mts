// Types of scripts/chromium.mjs for the TypeScript that imports it (playwright.config.ts, the e2e helpers).
/** Flags every launch uses: the machines have no sandbox user namespace, no GPU and a closed network. */
export const CHROMIUM_ARGS: readonly string[];
/** Debian's Chromium (or CHROMIUM_PATH), or null. */
export function findChromium(): string | null;
/** The Chromium path, installing Debian's package first when possible; null with advice printed otherwise. */
export function ensureChromium(): string | null;
