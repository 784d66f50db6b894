import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { readDemoIdentityAccounts, type DemoIdentityAccount } from './accounts';
import { PORTAL_API_RESOURCE, PORTAL_API_SCOPE, PORTAL_CLIENT_ID, providerConfiguration } from './configuration';
import { handleInteraction } from './interactions';
import { SigningKeyRing } from './keys';
import { portalOfflineAccessAsConsent } from './offline-access';
import { selfSignedCertificate, type TlsMaterial } from './self-signed';
import { DevIdentityStore, storeAdapter } from './store';

export interface DevIdentityProviderOptions {
  /** 0 picks a free port (tests). */
  port: number;
  /** Only a loopback address: this provider is for demos and tests. Default 127.0.0.1. */
  host?: string;
  /** Where the portal runs, e.g. http://127.0.0.1:3000; its redirect URIs and CORS origin. */
  portalUrl: string;
  /** Defaults to resources/demo-provider/identity-accounts.json. */
  accounts?: readonly DemoIdentityAccount[];
  /**
   * Serve https: MSAL accepts only an https authority, so the browser demo needs it.
   * 'self-signed' makes a certificate for 127.0.0.1, localhost and ::1 at start (self-signed.ts).
   * Without it the provider speaks plain http, which the tests use (same behaviour otherwise).
   */
  tls?: TlsMaterial | 'self-signed';
  /** Told about provider errors; the message only, never a token. Default: console.error. */
  onError?: (message: string) => void;
}

export interface DevIdentityProvider {
  /** http://<host>:<port>; also the MSAL authority. */
  issuer: string;
  jwksUri: string;
  clientId: string;
  /** The audience of the access tokens. */
  apiAudience: string;
  /** The scope the portal asks for to get an access token for its API. */
  apiScope: string;
  accounts: readonly DemoIdentityAccount[];
  /** The PEM certificate when serving https, for clients that must trust it; null over http. */
  certificate: string | null;
  /** Key id new tokens are signed with. */
  signingKid(): string;
  /**
   * Publishes a new signing key and signs every later token with it; the previous key stays in
   * the JWKS so tokens issued before still verify. Resolves to the new key id.
   */
  rotateKeys(): Promise<string>;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function portalOriginOf(portalUrl: string): string {
  const url = new URL(portalUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`portalUrl ${portalUrl} is not http(s)`);
  return url.origin;
}

/**
 * Starts a real OpenID Connect provider (oidc-provider 8) on its own HTTP server for the demo
 * and the tests, with the demo accounts and one public client for the portal. See
 * docs/identity.md#local-identity-provider.
 */
export async function startDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`The local identity provider listens on loopback only, not ${host}.`);
  const portalOrigin = portalOriginOf(options.portalUrl);
  const accounts = options.accounts ?? readDemoIdentityAccounts();
  const onError = options.onError ?? ((message: string) => console.error(`local identity provider: ${message}`));
  const keyRing = new SigningKeyRing();
  await keyRing.rotate();
  const cookieKeys = [randomBytes(32).toString('base64url')];
  const adapter = storeAdapter(new DevIdentityStore());

  let provider: Provider | undefined;
  let handler: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | undefined;
  const current = (): Provider => {
    if (provider === undefined) throw new Error('The local identity provider is not started.');
    return provider;
  };
  const interactionDeps = { provider: current, accounts, portalOrigin, clientName: 'Radiology patient portal' };

  const tls = options.tls === 'self-signed' ? selfSignedCertificate() : options.tls;
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    const pathname = new URL(request.url ?? '/', 'http://local').pathname;
    handleInteraction(interactionDeps, request, response, pathname)
      .then((handled) => {
        if (handled) return undefined;
        if (handler === undefined) {
          response.writeHead(503).end();
          return undefined;
        }
        return handler(request, response);
      })
      .catch((error: unknown) => {
        onError(error instanceof Error ? error.message : String(error));
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
  };
  const server = tls === undefined ? createServer(listener) : createTlsServer({ key: tls.key, cert: tls.cert }, listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `${tls === undefined ? 'http' : 'https'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  // oidc-provider reads its keys once, when it is built: a rotation builds a new instance with the
  // new key ring. Sessions, interactions and grants live in this provider's store (store.ts), which
  // every instance gets, so a sign-in under way survives the switch; the cookie keys stay the same
  // for the same reason.
  const build = (): void => {
    const next = new Provider(
      issuer,
      providerConfiguration({ portalOrigin, accounts, jwks: keyRing.privateJwks(), cookieKeys, adapter, secureCookies: tls !== undefined }),
    );
    next.use(portalOfflineAccessAsConsent);
    next.on('server_error', (_ctx: unknown, error: unknown) => {
      onError(error instanceof Error ? error.message : 'server error');
    });
    provider = next;
    handler = next.callback();
  };
  build();

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    clientId: PORTAL_CLIENT_ID,
    apiAudience: PORTAL_API_RESOURCE,
    apiScope: PORTAL_API_SCOPE,
    accounts,
    certificate: tls?.cert ?? null,
    signingKid: () => keyRing.signingKid(),
    async rotateKeys() {
      const kid = await keyRing.rotate();
      build();
      return kid;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
