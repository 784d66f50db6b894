import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import type Provider from 'oidc-provider';
import { readDemoIdentityAccounts, type DemoIdentityAccount } from './accounts';
import { handleInteraction } from './interactions';
import { PORTAL_API_RESOURCE, PORTAL_API_SCOPE, PORTAL_CLIENT_ID, RIS_CLIENT_ID } from './portal-client';
import type { ProviderInstance } from './provider-instance';
import { SigningKeyRing } from './keys';
import { portalOriginPolicy } from './portal-origins';
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
  /** The demo RIS client's FHIR access: its audience (default portalUrl/fhir/R4) and secret (default a random one). */
  ris?: DemoRisOptions;
  /** A file to keep the signing key in between starts (keys.ts restoreOrRotate); default a new key at each start. */
  keyFile?: string;
}

/** The demo RIS client: the FHIR API's audience its tokens are for, and its secret. */
export interface DemoRisOptions {
  fhirAudience?: string;
  clientSecret?: string | null;
}

export interface DevIdentityProvider {
  /** The `iss` of its tokens: http(s)://<host>:<port>, or PUBLIC_URL's origin with /dev/idp inside the portal. */
  issuer: string;
  /** What the browser is told to sign in with: the issuer, or the site path /dev/idp on the page's own origin. */
  authority: string;
  jwksUri: string;
  clientId: string;
  /** The audience of the access tokens. */
  apiAudience: string;
  /** The scope the portal asks for to get an access token for its API. */
  apiScope: string;
  /** The demo RIS client (client credentials only) and the FHIR audience its tokens carry. */
  risClient: { clientId: string; clientSecret: string; fhirAudience: string };
  accounts: readonly DemoIdentityAccount[];
  /** The PEM certificate when serving https, for clients that must trust it; null over http. */
  certificate: string | null;
  /** The public signing keys (the JWKS), for a verifier in the same process. */
  publicJwks(): JWK[];
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

/** The RIS client's audience and secret: as given, else the portal's FHIR base URL and a new random secret. */
function risOf(portalUrl: string, options: DemoRisOptions | undefined): CoreOptions['ris'] {
  return {
    fhirAudience: options?.fhirAudience ?? `${portalUrl.replace(/\/+$/, '')}/fhir/R4`,
    clientSecret: options?.clientSecret ?? randomBytes(24).toString('base64url'),
  };
}

function portalOriginOf(portalUrl: string): string {
  const url = new URL(portalUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`portalUrl ${portalUrl} is not http(s)`);
  return url.origin;
}

/** What building the provider needs, whether it gets a server of its own or lives inside the portal. */
interface CoreOptions {
  issuer: string;
  /** The path it is mounted under: '' on a server of its own, '/dev/idp' inside the portal. */
  base: string;
  portalOrigin: string;
  portalOriginAllowed?: (origin: string) => boolean;
  accounts: readonly DemoIdentityAccount[];
  onError: (message: string) => void;
  secureCookies: boolean;
  ris: { fhirAudience: string; clientSecret: string };
  /** Where the signing key is kept between starts; unset: a new key at each start. */
  keyFile?: string;
}

/** The provider and its request listener, for the paths after `base`. */
async function buildCore(options: CoreOptions) {
  const { issuer, base, portalOrigin, accounts, onError } = options;
  const keyRing = new SigningKeyRing();
  if (options.keyFile === undefined) await keyRing.rotate();
  else await keyRing.restoreOrRotate(options.keyFile);
  const cookieKeys = [randomBytes(32).toString('base64url')];
  const adapter = storeAdapter(new DevIdentityStore());

  // oidc-provider (with koa, a large tree) loads with the first request to the provider, not when
  // the portal starts: the keys, the issuer and the client are known without it.
  let instance: ProviderInstance | undefined;
  let building: Promise<ProviderInstance> | undefined;
  const current = (): Provider => {
    if (instance === undefined) throw new Error('The local identity provider is not started.');
    return instance.provider;
  };
  const interactionDeps = { provider: current, accounts, portalOrigin, clientName: 'Radiology patient portal', base };
  const allowed = options.portalOriginAllowed;

  // oidc-provider reads its keys once, when it is built: a rotation builds a new instance with the
  // new key ring. Sessions, interactions and grants live in this provider's store (store.ts), which
  // every instance gets, so a sign-in under way survives the switch; the cookie keys stay the same
  // for the same reason.
  const build = async (): Promise<ProviderInstance> => {
    const { createProviderInstance } = await import('./provider-instance');
    instance = createProviderInstance({
      issuer,
      configuration: {
        portalOrigin,
        accounts,
        jwks: keyRing.privateJwks(),
        cookieKeys,
        adapter,
        secureCookies: options.secureCookies,
        base,
        fhirAudience: options.ris.fhirAudience,
        risClientSecret: options.ris.clientSecret,
        ...(allowed === undefined ? {} : { portalOriginAllowed: allowed }),
      },
      onError,
    });
    return instance;
  };
  const ready = (): Promise<ProviderInstance> => (building ??= build());

  /** Answers a request whose path (after `base`) is `pathname`. */
  const listener = (request: IncomingMessage, response: ServerResponse, pathname: string): void => {
    ready()
      .then(async (built) => {
        if (!(await handleInteraction(interactionDeps, request, response, pathname))) await built.handler(request, response);
      })
      .catch((error: unknown) => {
        onError(error instanceof Error ? error.message : String(error));
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
  };

  return {
    listener,
    keyRing,
    ris: options.ris,
    rotate: async () => {
      const kid = await keyRing.rotate();
      // A provider already built is rebuilt with the new key; one not yet built will read it.
      if (building !== undefined) await (building = build());
      return kid;
    },
  };
}

/** What both ways of running the provider answer about it, apart from how it stops. */
function described(
  core: Awaited<ReturnType<typeof buildCore>>,
  facts: Pick<DevIdentityProvider, 'issuer' | 'authority' | 'accounts' | 'certificate'>,
): Omit<DevIdentityProvider, 'close'> {
  return {
    ...facts,
    jwksUri: `${facts.issuer}/jwks`,
    clientId: PORTAL_CLIENT_ID,
    apiAudience: PORTAL_API_RESOURCE,
    apiScope: PORTAL_API_SCOPE,
    risClient: { clientId: RIS_CLIENT_ID, ...core.ris },
    publicJwks: () => core.keyRing.publicJwks(),
    signingKid: () => core.keyRing.signingKid(),
    rotateKeys: () => core.rotate(),
  };
}

/**
 * Starts a real OpenID Connect provider (oidc-provider 8) on its own HTTP server for the tests
 * and `npm run dev-identity`, with the demo accounts and one public client for the portal. See
 * docs/identity.md#local-identity-provider.
 */
export async function startDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`The local identity provider listens on loopback only, not ${host}.`);
  const portalOrigin = portalOriginOf(options.portalUrl);
  const accounts = options.accounts ?? readDemoIdentityAccounts();
  const onError = options.onError ?? ((message: string) => console.error(`local identity provider: ${message}`));
  const tls = options.tls === 'self-signed' ? selfSignedCertificate() : options.tls;

  // Built once the port (and so the issuer) is known; requests before that get 503.
  const started: { core?: Awaited<ReturnType<typeof buildCore>> } = {};
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    const core = started.core;
    if (core === undefined) {
      response.writeHead(503).end();
      return;
    }
    core.listener(request, response, new URL(request.url ?? '/', 'http://local').pathname);
  };
  const server = tls === undefined ? createServer(listener) : createTlsServer({ key: tls.key, cert: tls.cert }, listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `${tls === undefined ? 'http' : 'https'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const ris = risOf(options.portalUrl, options.ris);
  const built = await buildCore({
    issuer,
    base: '',
    portalOrigin,
    accounts,
    onError,
    secureCookies: tls !== undefined,
    ris,
    ...(options.keyFile === undefined ? {} : { keyFile: options.keyFile }),
  });
  started.core = built;

  return {
    ...described(built, { issuer, authority: issuer, accounts, certificate: tls?.cert ?? null }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Where the demo provider lives inside the portal: the portal's own origin, so no certificate to accept. */
export const MOUNTED_IDENTITY_PATH = '/dev/idp';

export interface MountedDevIdentityProvider extends DevIdentityProvider {
  /** Answers a request for MOUNTED_IDENTITY_PATH or below; false (untouched) for any other path. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

/**
 * The same provider inside the portal's own HTTP server under MOUNTED_IDENTITY_PATH (docs/identity.md):
 * plain http on the portal's origin, which the browser's OpenID client accepts where MSAL would
 * not. Its issuer is PUBLIC_URL's; the browser reaches it on whatever origin it opened the portal
 * with (portal-origins.ts), and oidc-provider answers each with that origin's endpoint addresses.
 */
export async function mountDevIdentityProvider(
  options: Pick<DevIdentityProviderOptions, 'portalUrl' | 'accounts' | 'onError' | 'ris' | 'keyFile'>,
): Promise<MountedDevIdentityProvider> {
  const portalOrigin = portalOriginOf(options.portalUrl);
  const accounts = options.accounts ?? readDemoIdentityAccounts();
  const onError = options.onError ?? ((message: string) => console.error(`local identity provider: ${message}`));
  const issuer = `${portalOrigin}${MOUNTED_IDENTITY_PATH}`;
  const portalOriginAllowed = portalOriginPolicy(portalOrigin);
  const core = await buildCore({
    issuer,
    base: MOUNTED_IDENTITY_PATH,
    portalOrigin,
    portalOriginAllowed,
    accounts,
    onError,
    secureCookies: portalOrigin.startsWith('https:'),
    ris: risOf(options.portalUrl, options.ris),
    ...(options.keyFile === undefined ? {} : { keyFile: options.keyFile }),
  });
  return {
    ...described(core, { issuer, authority: MOUNTED_IDENTITY_PATH, accounts, certificate: null }),
    close: () => Promise.resolve(),
    handle(request, response) {
      const url = request.url ?? '/';
      const pathname = url.split('?')[0] ?? '/';
      if (pathname !== MOUNTED_IDENTITY_PATH && !pathname.startsWith(`${MOUNTED_IDENTITY_PATH}/`)) return false;
      // As a mounted app sees it (express's app.use): the path after the mount, and the mount as
      // baseUrl, from which oidc-provider builds its addresses (oidc_context.js urlFor).
      const inner = url.slice(MOUNTED_IDENTITY_PATH.length) || '/';
      (request as IncomingMessage & { baseUrl?: string }).baseUrl = MOUNTED_IDENTITY_PATH;
      // The portal's pages are COOP same-origin; the sign-in popup keeps its opener only if the
      // provider's pages on the same origin say the same (else the portal sees the popup as closed).
      response.setHeader('cross-origin-opener-policy', 'same-origin');
      request.url = inner.startsWith('/') ? inner : `/${inner}`;
      core.listener(request, response, new URL(request.url, 'http://local').pathname);
      return true;
    },
  };
}
