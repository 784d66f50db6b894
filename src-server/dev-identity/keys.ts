import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

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

  /** Generates a new key, makes it the signing key and drops keys beyond PUBLISHED. */
  async rotate(): Promise<string> {
    const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const jwk = await exportJWK(privateKey);
    const kid = randomUUID();
    this.keys = [{ ...jwk, kid, alg: 'RS256', use: 'sig' }, ...this.keys].slice(0, SigningKeyRing.PUBLISHED);
    return kid;
  }
}
