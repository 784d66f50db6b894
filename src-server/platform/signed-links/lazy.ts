import type { Clock } from '../clock';
import { signedLinkKeysFromConfig } from './keys';
import { createSignedLinks, type SignedLinks } from './signed-links';

/**
 * The server's signed links, made on first use: without configured keys (SIGNED_LINK_KEYS) the
 * key derives from the server secret, which may first have to be read from the database.
 */
export function lazySignedLinks(
  configuredKeys: string | undefined,
  serverSecret: () => Promise<string>,
  clock: Clock,
  /** A longer limit for links meant to last (an unsubscribe link: a year); default DEFAULT_MAX_TTL_MS. */
  options: { maxTtlMs?: number } = {},
): () => Promise<SignedLinks> {
  let made: Promise<SignedLinks> | null = null;
  return () => {
    made ??= serverSecret()
      .then((secret) => createSignedLinks({ keys: signedLinkKeysFromConfig(configuredKeys, secret), clock, ...options }))
      .catch((error: unknown) => {
        made = null;
        throw error;
      });
    return made;
  };
}
