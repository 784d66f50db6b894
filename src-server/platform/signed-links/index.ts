export {
  createSignedLinks,
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_TTL_MS,
  MAX_TOKEN_LENGTH,
  MIN_SECRET_BYTES,
  SIGNED_LINK_VERSION,
  type SignedLinkFailure,
  type SignedLinkKey,
  type SignedLinkResult,
  type SignedLinks,
  type SignedLinksOptions,
  type SignRequest,
} from './signed-links';
export { DERIVED_KEY_ID, deriveSignedLinkKey, parseSignedLinkKeys, signedLinkKeysFromConfig } from './keys';
export { lazySignedLinks } from './lazy';
