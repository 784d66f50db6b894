import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** The parts of an RS256 private JWK; a kept key missing one is not used. */
const PRIVATE_RSA_PARTS = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'kid'] as const;

function keptKey(file: string): JWK | null {
  try {
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const complete = jwk.kty === 'RSA' && jwk.alg === 'RS256' && PRIVATE_RSA_PARTS.every((part) => typeof jwk[part] === 'string');
    return complete ? (jwk as JWK) : null;
  } catch {
    return null; // none yet, or not a key: a new one is made
  }
}

/**
 * The provider's RS256 signing keys, newest first. oidc-provider signs with the first key that
 * fits the algorithm (node_modules/oidc-provider/lib/helpers/keystore.js keeps the list order), and
 * publishes every key at its JWKS URL. A rotation puts a new key in front and keeps the previous
 * one published, so tokens issued just before the rotation still verify until they expire.
 */
export class SigningKeyRing {
  /** How many keys stay published: the signing key and the one before it. */
  static readonly PUBLISHED = 2;

  private keys: JWK[] = [];

  /** The private JWKs for oidc-provider's `jwks` option, signing key first. */
  privateJwks(): JWK[] {
    return this.keys.map((key) => ({ ...key }));
  }

  /** The public halves, as a JWKS publishes them. */
  publicJwks(): JWK[] {
    return this.keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use }));
  }

  /** The key id new tokens are signed with. */
  signingKid(): string {
    const kid = this.keys[0]?.kid;
    if (kid === undefined) throw new Error('The signing key ring is empty: call rotate() first.');
    return kid;
  }

  /**
   * Starts the ring with the key kept in `file`, or with a new one that is then kept there (owner
   * only). A 2048-bit RSA key takes 50-450 ms to make, which a start then skips, and tokens the
   * demo provider signed stay valid across restarts.
   */
  async restoreOrRotate(file: string): Promise<string> {
    const kept = keptKey(file);
    if (kept !== null) {
      this.keys = [kept];
      return this.signingKid();
    }
    const kid = await this.rotate();
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(this.keys[0])}\n`, { mode: 0o600 });
    renameSync(partial, file);
    return kid;
  }

  /** Generates a new key, makes it the signing key and drops keys beyond PUBLISHED. */
  async rotate(): Promise<string> {
    const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const jwk = await exportJWK(privateKey);
    const kid = randomUUID();
    this.keys = [{ ...jwk, kid, alg: 'RS256', use: 'sig' }, ...this.keys].slice(0, SigningKeyRing.PUBLISHED);
    return kid;
  }
}
