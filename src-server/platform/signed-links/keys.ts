import { hkdfSync } from 'node:crypto';
import { KEY_ID_PATTERN, MIN_SECRET_BYTES, type SignedLinkKey } from './signed-links';

/**
 * Signed-link keys from configuration, so one environment variable can carry a rotation:
 *
 *   kid1:<base64 secret>,kid0:<base64 secret>@2026-11-01T00:00:00Z
 *
 * Entries are comma-separated, `id:secret[@retiredAt]`. The secret is base64 or base64url
 * (padding optional) of at least 32 bytes; retiredAt is an ISO-8601 instant with Z or an offset.
 * The first entry without retiredAt signs. Error messages name the entry and key id, never the
 * secret (the value comes from the environment and errors reach logs).
 */
export function parseSignedLinkKeys(text: string): SignedLinkKey[] {
  if (typeof text !== 'string' || text.trim() === '')
    throw new Error('signed link keys: empty; expected "id:base64secret[@retiredAt],..."');
  const seen = new Set<string>();
  const keys = text.split(',').map((rawEntry, index): SignedLinkKey => {
    const where = `signed link keys: entry ${index + 1}`;
    const entry = rawEntry.trim();
    if (entry === '') throw new Error(`${where} is empty (stray comma?)`);
    const colon = entry.indexOf(':');
    if (colon < 0) throw new Error(`${where} has no ":"; expected "id:base64secret[@retiredAt]"`);
    const id = entry.slice(0, colon);
    if (!KEY_ID_PATTERN.test(id)) throw new Error(`${where}: key id must be 1–16 characters of A-Z a-z 0-9 _ -`);
    if (seen.has(id)) throw new Error(`${where}: key id "${id}" appears twice`);
    seen.add(id);

    const rest = entry.slice(colon + 1);
    const at = rest.indexOf('@');
    const secretText = at < 0 ? rest : rest.slice(0, at);
    const secret = decodeSecret(secretText);
    if (!secret) throw new Error(`${where} (key "${id}"): secret is not valid base64 or base64url`);
    if (secret.length < MIN_SECRET_BYTES)
      throw new Error(`${where} (key "${id}"): secret is ${secret.length} bytes; at least ${MIN_SECRET_BYTES} are required`);
    if (at < 0) return { id, secret };

    const retiredText = rest.slice(at + 1);
    // Explicit zone required: a local-time instant would shift the grace window by the server's zone.
    const retiredAt = new Date(retiredText);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(retiredText) || Number.isNaN(retiredAt.getTime()))
      throw new Error(`${where} (key "${id}"): retiredAt "${retiredText}" is not an ISO-8601 instant like 2026-11-01T00:00:00Z`);
    return { id, secret, retiredAt };
  });
  if (!keys.some((key) => key.retiredAt === undefined))
    throw new Error('signed link keys: every key is retired; one key without @retiredAt must sign');
  return keys;
}

/** Strict base64/base64url: Buffer.from() silently skips junk, so the alphabet is checked first. */
function decodeSecret(text: string): Buffer | undefined {
  const unpadded = text.replace(/={1,2}$/, '');
  if (unpadded === '' || !/^[A-Za-z0-9+/_-]+$/.test(unpadded) || unpadded.length % 4 === 1) return undefined;
  if (/[+/]/.test(unpadded) && /[-_]/.test(unpadded)) return undefined; // mixed alphabets: a paste error
  return Buffer.from(unpadded.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
}

/** HKDF parameters are fixed: changing any of them changes the derived key and breaks live links. */
const HKDF_SALT = 'portal/signed-links/v1';
const HKDF_INFO = 'hmac-sha256 signing key';
export const DERIVED_KEY_ID = 'hkdf1';

/**
 * When no keys are configured, one key derived from the server secret (SESSION_SECRET or the
 * secret kept in the database) with HKDF-SHA256, so the signed-link key is independent of every
 * other HMAC the server computes with that secret. Rotating means configuring explicit keys and
 * listing this one with a retiredAt: `deriveSignedLinkKey(secret, { retiredAt })`.
 */
export function deriveSignedLinkKey(serverSecret: string | Buffer, options: { id?: string; retiredAt?: Date } = {}): SignedLinkKey {
  const material = typeof serverSecret === 'string' ? Buffer.from(serverSecret, 'utf8') : serverSecret;
  if (material.length < MIN_SECRET_BYTES)
    throw new Error(`signed link keys: the server secret must be at least ${MIN_SECRET_BYTES} bytes to derive from`);
  const id = options.id ?? DERIVED_KEY_ID;
  if (!KEY_ID_PATTERN.test(id)) throw new Error('signed link keys: derived key id must be 1–16 characters of A-Z a-z 0-9 _ -');
  const secret = Buffer.from(hkdfSync('sha256', material, HKDF_SALT, HKDF_INFO, 32));
  return { id, secret, ...(options.retiredAt ? { retiredAt: options.retiredAt } : {}) };
}

/** The configured keys when the variable is set, else the single HKDF-derived key. */
export function signedLinkKeysFromConfig(configured: string | undefined, serverSecret: string | Buffer): SignedLinkKey[] {
  return configured !== undefined && configured.trim() !== '' ? parseSignedLinkKeys(configured) : [deriveSignedLinkKey(serverSecret)];
}
