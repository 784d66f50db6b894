import { createHmac } from 'node:crypto';
import { createTestClock } from '../../../../src-server/platform/clock';
import { createSignedLinks, type SignedLinkKey } from '../../../../src-server/platform/signed-links';

/** Shared fixtures for the signed-link tests. */

export const T0 = '2026-03-10T01:00:00.000Z';
export const PURPOSE = 'imsec.view';
export const AUDIENCE = 'referrer-portal';
export const EXPECTED = { purpose: PURPOSE, audience: AUDIENCE };
export const HOUR = 60 * 60 * 1000;

export const secretA = Buffer.alloc(32, 0xa1);
export const secretB = Buffer.alloc(32, 0xb2);
export const keyA: SignedLinkKey = { id: 'kA', secret: secretA };
export const keyB: SignedLinkKey = { id: 'kB', secret: secretB };

export function setup(keys: SignedLinkKey[] = [keyA], options: { graceMs?: number } = {}) {
  const clock = createTestClock(T0);
  return { clock, links: createSignedLinks({ keys, clock, ...options }) };
}

/**
 * The public v1 format rebuilt independently, as an attacker who read the source would: lets a
 * test produce a token with any payload and any secret. That a token made here with the REAL
 * secret is accepted (see the tests) shows the refusals come from the secret, not from this copy.
 */
const MAC_HEADER = Buffer.concat([Buffer.from([0x01]), Buffer.from('HMAC-SHA256\0portal-signed-link\0', 'ascii')]);

export function forge(secret: Buffer, kid: string, payload: unknown, payloadText?: string): string {
  const body = payloadText ?? Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  const signedText = `v1.${kid}.${body}`;
  return `${signedText}.${createHmac('sha256', secret).update(MAC_HEADER).update(signedText, 'ascii').digest('base64url')}`;
}

export function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[2] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

export const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'.split('');
