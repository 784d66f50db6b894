import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';

/**
 * Signed, expiring, purpose-bound links (the imsec image viewer link and friends; security
 * checklist C6). Dependency-free on purpose: node:crypto only.
 *
 * Token: `v1.<kid>.<payload>.<tag>`, payload and tag base64url without padding.
 *   payload = JSON {v:1, kid, purpose, aud, sub, iat, exp, nonce} (iat/exp: Unix milliseconds)
 *   tag     = HMAC-SHA256(key[kid], MAC_HEADER || "v1.<kid>.<payload>")
 *
 * Why this shape:
 * - The algorithm is fixed by the version ("v1" = HMAC-SHA256). Nothing in the token chooses
 *   the algorithm, so there is no `none` and no alg switching (ASVS 9.1.x).
 * - The MAC covers the exact ASCII text of version, kid and payload, so every character that is
 *   not the tag is authenticated; the tag itself must be canonical base64url so no two spellings
 *   of one tag exist. Together: any single-character change is refused.
 * - Verification order: outer shape → key lookup → constant-time MAC compare → only then JSON
 *   parsing and claim checks. Attacker-controlled JSON is never parsed before it is authenticated.
 *
 * Callers log the outcome (F1: "imsec use") with `tokenId`/`reason`, never the token itself (F2).
 */

export interface SignedLinkKey {
  /** 1–16 characters of [A-Za-z0-9_-]; public, travels in the token. */
  id: string;
  /** At least 32 bytes. */
  secret: Buffer;
  /** Set when rotated out: the key stops signing at once and stops verifying after the grace. */
  retiredAt?: Date;
}

export interface SignedLinksOptions {
  /** In order of preference: the first key without retiredAt signs. */
  keys: readonly SignedLinkKey[];
  clock: Clock;
  /** How long a retired key still verifies, so links already handed out keep working. Default 24 h. */
  graceMs?: number;
  /** Longest ttlMs sign() accepts. Default 30 days. */
  maxTtlMs?: number;
}

export interface SignRequest {
  /** What the link may do, e.g. 'imsec.view'. A token for one purpose is refused for any other. */
  purpose: string;
  /** Who the link is for, e.g. a referrer portal or repository source. */
  audience: string;
  /** What the link points at, e.g. an accession number. */
  subject: string;
  ttlMs: number;
}

export type SignedLinkFailure =
  'malformed' | 'unknown_key' | 'bad_signature' | 'expired' | 'wrong_purpose' | 'wrong_audience' | 'key_retired';

export type SignedLinkResult =
  | {
      ok: true;
      subject: string;
      expiresAt: Date;
      /** The token's nonce: a stable, non-secret id for audit logs and revocation lists. */
      tokenId: string;
      keyId: string;
    }
  | { ok: false; reason: SignedLinkFailure };

export interface SignedLinks {
  sign(request: SignRequest): string;
  verify(token: unknown, expected: { purpose: string; audience: string }): SignedLinkResult;
}

export const SIGNED_LINK_VERSION = 'v1';
/** Long enough for the longest claims below; anything longer is refused before any work. */
export const MAX_TOKEN_LENGTH = 1024;
export const MIN_SECRET_BYTES = 32;
export const DEFAULT_GRACE_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** iat further in the future than this means a clock jump or a forged key: refused. */
const ISSUED_AT_SKEW_MS = 5 * 60 * 1000;

export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,16}$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;
/** 32 bytes of HMAC-SHA256 = 43 base64url characters, no padding. */
const TAG_LENGTH = 43;
const NONCE_BYTES = 16;
const CLAIM_LIMITS = { purpose: 64, aud: 128, sub: 256 } as const;
const PAYLOAD_KEYS = ['aud', 'exp', 'iat', 'kid', 'nonce', 'purpose', 'sub', 'v'];

/**
 * Fixed domain-separation header in front of the MAC input: version byte 0x01, then the fixed
 * algorithm name. Keys derived for anything else can't produce a valid tag here by accident.
 */
const MAC_HEADER = Buffer.concat([Buffer.from([0x01]), Buffer.from('HMAC-SHA256\0portal-signed-link\0', 'ascii')]);

function mac(secret: Buffer, signedText: string): Buffer {
  return createHmac('sha256', secret).update(MAC_HEADER).update(signedText, 'ascii').digest();
}

/** Base64url that decodes and re-encodes to itself: one spelling per byte string. */
function decodeCanonical(segment: string): Buffer | undefined {
  if (!BASE64URL_PATTERN.test(segment)) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : undefined;
}

/** Printable ASCII only: claims end up in logs and URLs, so no control or look-alike characters. */
function isClaimText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= maxLength && /^[\x20-\x7e]+$/.test(value);
}

function checkKeys(keys: readonly SignedLinkKey[]): SignedLinkKey[] {
  if (keys.length === 0) throw new Error('signed links: no keys configured');
  const seen = new Set<string>();
  return keys.map((key, index) => {
    if (typeof key.id !== 'string' || !KEY_ID_PATTERN.test(key.id))
      throw new Error(`signed links: key #${index + 1} has an invalid id (1–16 characters of A-Z a-z 0-9 _ -)`);
    if (seen.has(key.id)) throw new Error(`signed links: key id "${key.id}" appears twice`);
    seen.add(key.id);
    if (!Buffer.isBuffer(key.secret) || key.secret.length < MIN_SECRET_BYTES)
      throw new Error(`signed links: key "${key.id}" secret must be at least ${MIN_SECRET_BYTES} bytes`);
    if (key.retiredAt !== undefined && (!(key.retiredAt instanceof Date) || Number.isNaN(key.retiredAt.getTime())))
      throw new Error(`signed links: key "${key.id}" retiredAt is not a valid date`);
    // Copies: a caller zeroing or reusing its buffer later must not change our keys.
    return { id: key.id, secret: Buffer.from(key.secret), ...(key.retiredAt ? { retiredAt: new Date(key.retiredAt) } : {}) };
  });
}

export function createSignedLinks(options: SignedLinksOptions): SignedLinks {
  const keys = checkKeys(options.keys);
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const maxTtlMs = options.maxTtlMs ?? DEFAULT_MAX_TTL_MS;
  if (!Number.isSafeInteger(graceMs) || graceMs < 0) throw new Error('signed links: graceMs must be a non-negative integer');
  if (!Number.isSafeInteger(maxTtlMs) || maxTtlMs <= 0) throw new Error('signed links: maxTtlMs must be a positive integer');
  const signingKey = keys.find((key) => key.retiredAt === undefined);
  if (!signingKey) throw new Error('signed links: every key is retired; add a key without retiredAt to sign with');
  const signer: SignedLinkKey = signingKey;
  const byId = new Map(keys.map((key) => [key.id, key]));
  const { clock } = options;

  function sign(request: SignRequest): string {
    if (!isClaimText(request.purpose, CLAIM_LIMITS.purpose))
      throw new Error('signed links: purpose must be 1–64 printable ASCII characters');
    if (!isClaimText(request.audience, CLAIM_LIMITS.aud))
      throw new Error('signed links: audience must be 1–128 printable ASCII characters');
    if (!isClaimText(request.subject, CLAIM_LIMITS.sub)) throw new Error('signed links: subject must be 1–256 printable ASCII characters');
    if (!Number.isSafeInteger(request.ttlMs) || request.ttlMs <= 0 || request.ttlMs > maxTtlMs)
      throw new Error(`signed links: ttlMs must be a positive integer of at most ${maxTtlMs}`);
    const iat = clock.now().getTime();
    // Key order is fixed here; verify() checks the exact key set, not the order.
    const payload = {
      v: 1,
      kid: signer.id,
      purpose: request.purpose,
      aud: request.audience,
      sub: request.subject,
      iat,
      exp: iat + request.ttlMs,
      nonce: randomBytes(NONCE_BYTES).toString('base64url'),
    };
    const signedText = `${SIGNED_LINK_VERSION}.${signer.id}.${Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url')}`;
    const token = `${signedText}.${mac(signer.secret, signedText).toString('base64url')}`;
    if (token.length > MAX_TOKEN_LENGTH) throw new Error('signed links: token would exceed the length limit');
    return token;
  }

  function verify(token: unknown, expected: { purpose: string; audience: string }): SignedLinkResult {
    const fail = (reason: SignedLinkFailure): SignedLinkResult => ({ ok: false, reason });

    // 1. Outer shape, before any crypto or parsing: bounded, ASCII, exactly four segments.
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return fail('malformed');
    const segments = token.split('.');
    if (segments.length !== 4) return fail('malformed');
    const [version, kid, payloadText, tagText] = segments as [string, string, string, string];
    if (version !== SIGNED_LINK_VERSION || !KEY_ID_PATTERN.test(kid)) return fail('malformed');
    if (!BASE64URL_PATTERN.test(payloadText) || tagText.length !== TAG_LENGTH) return fail('malformed');
    const givenTag = decodeCanonical(tagText);
    if (!givenTag) return fail('malformed');

    // 2. The key. Unknown ids are refused without computing anything.
    const key = byId.get(kid);
    if (!key) return fail('unknown_key');

    // 3. MAC over the exact text received, compared in constant time (lengths are equal by
    //    construction — 43 canonical chars = 32 bytes — and checked anyway, as timingSafeEqual
    //    throws on a mismatch).
    const expectedTag = mac(key.secret, `${version}.${kid}.${payloadText}`);
    if (givenTag.length !== expectedTag.length || !timingSafeEqual(givenTag, expectedTag)) return fail('bad_signature');

    // Authentic, but from a key rotated out longer ago than the grace period.
    const now = clock.now().getTime();
    if (key.retiredAt !== undefined && now > key.retiredAt.getTime() + graceMs) return fail('key_retired');

    // 4. Only now parse the payload, strictly: exact keys, exact types. A valid MAC with a bad
    //    payload means a bug or a leaked key, so it is still refused.
    const claims = parsePayload(payloadText, kid);
    if (!claims) return fail('malformed');

    // 5. Claims. Expiry first so an expired link never tells which purpose it had.
    if (now >= claims.exp || claims.iat > now + ISSUED_AT_SKEW_MS) return fail('expired');
    if (claims.purpose !== expected.purpose) return fail('wrong_purpose');
    if (claims.aud !== expected.audience) return fail('wrong_audience');
    return { ok: true, subject: claims.sub, expiresAt: new Date(claims.exp), tokenId: claims.nonce, keyId: kid };
  }

  return {
    sign,
    verify: (token, expected) => {
      // verify() must never throw on hostile input; anything unforeseen is refused, not raised.
      try {
        return verify(token, expected);
      } catch {
        return { ok: false, reason: 'malformed' };
      }
    },
  };
}

interface Claims {
  purpose: string;
  aud: string;
  sub: string;
  iat: number;
  exp: number;
  nonce: string;
}

function parsePayload(payloadText: string, kid: string): Claims | undefined {
  const bytes = decodeCanonical(payloadText);
  if (!bytes) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  if (keys.length !== PAYLOAD_KEYS.length || keys.some((name, index) => name !== PAYLOAD_KEYS[index])) return undefined;
  const { v, purpose, aud, sub, iat, exp, nonce } = record;
  if (v !== 1 || record.kid !== kid) return undefined;
  if (!isClaimText(purpose, CLAIM_LIMITS.purpose) || !isClaimText(aud, CLAIM_LIMITS.aud) || !isClaimText(sub, CLAIM_LIMITS.sub))
    return undefined;
  if (!Number.isSafeInteger(iat) || !Number.isSafeInteger(exp) || (exp as number) <= (iat as number)) return undefined;
  if (typeof nonce !== 'string' || decodeCanonical(nonce)?.length !== NONCE_BYTES) return undefined;
  return { purpose, aud, sub, iat: iat as number, exp: exp as number, nonce };
}
