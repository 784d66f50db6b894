import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A self-signed TLS certificate for the local identity provider. MSAL accepts only an https
 * authority (@azure/msal-common UrlString.validateAsUri: authority_uri_insecure), so the provider
 * the browser talks to must speak TLS even on this machine. Node can sign but not build an X.509
 * certificate, and the project takes no certificate library for a demo: this file writes the
 * few DER structures of RFC 5280 it needs (an RSA key, sha256WithRSAEncryption, a subject
 * alternative name per host, serverAuth).
 */

export interface TlsMaterial {
  /** PEM private key (PKCS#8). */
  key: string;
  /** PEM certificate. */
  cert: string;
}

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size]);
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...content: Buffer[]) => tlv(0x30, ...content);

/** A DER INTEGER: minimal (no leading zero byte, which OpenSSL refuses as "illegal padding", unless the sign needs one). */
function integer(value: Buffer): Buffer {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start += 1;
  const minimal = value.subarray(start);
  const positive = (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal;
  return tlv(0x02, positive);
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) chunk.unshift((value & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

function commonName(name: string): Buffer {
  return sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(name, 'utf8')))));
}

function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return Buffer.concat(groups.map((group) => Buffer.from(group.padStart(4, '0'), 'hex')));
}

function subjectAltNames(hosts: readonly string[]): Buffer {
  const names = hosts.map((host) => (isIP(host) === 0 ? tlv(0x82, Buffer.from(host, 'ascii')) : tlv(0x87, ipBytes(host))));
  return sequence(oid('2.5.29.17'), tlv(0x04, sequence(...names)));
}

const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), tlv(0x05));

/**
 * A new RSA key and a certificate for `hosts` (names or IP addresses; the first is the common
 * name), valid from a minute ago for `days`.
 */
export function selfSignedCertificate(
  hosts: readonly string[] = ['127.0.0.1', 'localhost', '::1'],
  days = 30,
  serial: Buffer = randomBytes(16),
): TlsMaterial {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + days * 24 * 60 * 60 * 1000);
  const name = commonName(hosts[0] ?? 'localhost');
  const extensions = sequence(
    subjectAltNames(hosts),
    // basicConstraints: not a certificate authority.
    sequence(oid('2.5.29.19'), tlv(0x04, sequence())),
    // extKeyUsage: serverAuth.
    sequence(oid('2.5.29.37'), tlv(0x04, sequence(oid('1.3.6.1.5.5.7.3.1')))),
  );
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    SHA256_WITH_RSA,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.from([0]), signature));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
  };
}
