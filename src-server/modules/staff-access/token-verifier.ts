import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../platform/clock';

/**
 * Verifies the access token the browser got from the provider's identity provider
 * (docs/rules/staff-access.md#token-verification): an RS256 signature by a key of the provider's
 * JWKS, the configured issuer and audience, and exp / nbf by the server's clock. The key set is
 * fetched on first use and cached by jose; a token naming a key id the cache does not hold makes
 * it fetch the set again (at most once per cooldown), so a key rotation at the provider is
 * picked up without a restart.
 */

/** Clock skew accepted between the provider and this server. */
export const TOKEN_CLOCK_TOLERANCE_SECONDS = 30;
/** Least time between two fetches of the key set caused by unknown key ids (jose's default). */
export const JWKS_COOLDOWN_MS = 30_000;

export type TokenRefusal =
  | 'expired'
  | 'not_yet_valid'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'bad_claims'
  | 'bad_signature'
  | 'unknown_key'
  | 'wrong_algorithm'
  | 'malformed'
  | 'no_subject'
  | 'wrong_client';

export interface TokenVerifierOptions {
  /** The provider's `iss` (Entra v2: https://login.microsoftonline.com/<tenant>/v2.0); several when v1 tokens are accepted too. */
  issuer: string | string[];
  /** The provider's key set: https, or http on a loopback address (a local provider). */
  jwksUri: string;
  /** The portal's API as the provider names it in `aud` (one or several accepted values). */
  audience: string | string[];
  /**
   * The client ids a token must have been issued to (`azp` in Entra v2 and OpenID Connect, `appid`
   * in Entra v1, `client_id` in RFC 9068 tokens): another application of the tenant that may call
   * the portal's API cannot open a staff session with its tokens. Unset: not checked.
   */
  authorizedParties?: readonly string[];
  /** Tests set it to 0 so one unknown key id does not delay the next fetch. */
  jwksCooldownMs?: number;
  /**
   * How the key set is fetched; default the global fetch. The local demo provider serves a
   * self-signed certificate, which main.ts trusts through src-server/dev-identity/trusted-fetch.ts.
   */
  fetchKeys?: (
    url: string,
    init: { method?: string; headers?: Headers | Record<string, string>; signal?: AbortSignal | null },
  ) => Promise<Response>;
}

export type VerifiedToken = { ok: true; claims: JWTPayload; subject: string } | { ok: false; reason: TokenRefusal };

/** The key set could not be fetched (provider down, bad answer): a 503, not the caller's fault. */
export class KeySetUnavailableError extends Error {
  constructor(readonly code: string) {
    super(`the identity provider's key set could not be read (${code})`);
    this.name = 'KeySetUnavailableError';
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Refuses a key set URL an attacker on the network could answer (plain http beyond this machine). */
export function checkJwksUri(jwksUri: string): URL {
  const url = new URL(jwksUri);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return url;
  throw new Error(`[staff-access] the JWKS URI must be https (or http on loopback): ${url.origin}`);
}

function refusalOf(error: unknown): TokenRefusal | null {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf' || error.claim === 'iat') return 'not_yet_valid';
    if (error.claim === 'iss') return 'wrong_issuer';
    if (error.claim === 'aud') return 'wrong_audience';
    return 'bad_claims';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return 'unknown_key';
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return 'wrong_algorithm';
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JWKInvalid) return 'malformed';
  return null;
}

/** An empty issuer or audience would make jose skip that check (an empty string) or refuse every token: refused at start. */
function checkNonEmpty(name: string, value: string | string[]): void {
  const values = typeof value === 'string' ? [value] : value;
  if (values.length === 0 || values.some((item) => item.trim() === '')) throw new Error(`[staff-access] the ${name} must be given`);
}

export function createTokenVerifier(options: TokenVerifierOptions, clock: Clock) {
  checkNonEmpty('issuer', options.issuer);
  checkNonEmpty('audience', options.audience);
  const jwks = createRemoteJWKSet(checkJwksUri(options.jwksUri), {
    cooldownDuration: options.jwksCooldownMs ?? JWKS_COOLDOWN_MS,
    ...(options.fetchKeys === undefined ? {} : { [customFetch]: options.fetchKeys }),
  });

  return {
    async verify(token: string): Promise<VerifiedToken> {
      let claims: JWTPayload;
      try {
        ({ payload: claims } = await jwtVerify(token, jwks, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: ['RS256'],
          clockTolerance: TOKEN_CLOCK_TOLERANCE_SECONDS,
          currentDate: clock.now(),
          requiredClaims: ['exp'],
        }));
      } catch (error) {
        const reason = refusalOf(error);
        if (reason !== null) return { ok: false, reason };
        if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) throw new KeySetUnavailableError(error.code);
        // A fetch that failed (connection refused, a non-200 answer) is the provider's problem, not the token's.
        if (error instanceof errors.JOSEError) throw new KeySetUnavailableError(error.code);
        if (error instanceof TypeError) throw new KeySetUnavailableError('fetch_failed');
        throw error;
      }
      // Entra's oid is the person across the tenant's apps; sub is per application. Either is stable.
      const subject = typeof claims.oid === 'string' && claims.oid !== '' ? claims.oid : claims.sub;
      if (typeof subject !== 'string' || subject === '' || subject.length > 200) return { ok: false, reason: 'no_subject' };
      if (options.authorizedParties !== undefined && !issuedToPortal(claims, options.authorizedParties))
        return { ok: false, reason: 'wrong_client' };
      return { ok: true, claims, subject };
    },
  };
}

/** The client the token was issued to, under whichever claim the provider names it, is one of ours. */
function issuedToPortal(claims: JWTPayload, parties: readonly string[]): boolean {
  const client = [claims.azp, claims.appid, claims.client_id].find((value) => typeof value === 'string' && value !== '');
  return typeof client === 'string' && parties.includes(client);
}

export type TokenVerifier = ReturnType<typeof createTokenVerifier>;
