import { join } from 'node:path';
import type { Config } from './config';
import type { DemoRisOptions, DevIdentityProviderOptions, MountedDevIdentityProvider } from './dev-identity/provider';
import type { StaffIdentityOptions } from './modules/staff-access/routes';

/**
 * Staff sign-in as the configuration says (src-server/config-identity.ts): the provider's own
 * identity provider, or the local demo one started here beside the server (docs/identity.md), or
 * none. Answers what buildServer needs (ServerDeps.identity), the lines for the start-up banner,
 * and how to stop the local provider. The demo provider's code (src-server/dev-identity/) is
 * loaded only when it is configured: a server with a real identity provider never loads it.
 */

export interface StaffIdentity {
  identity: StaffIdentityOptions | undefined;
  banner: string[];
  /** The local provider's self-signed certificate (its clients must trust it); null otherwise. */
  certificate: string | null;
  /** The local provider inside the portal (/dev/idp): the portal's HTTP server hands it its requests. */
  mounted: MountedDevIdentityProvider['handle'] | null;
  close(): Promise<void>;
}

type IdentitySettings = Pick<Config, 'identity' | 'publicUrl'> & Partial<Pick<Config, 'fhirAudience' | 'devRisClientSecret' | 'dataDir'>>;

/** The demo provider keeps its signing key in DATA_DIR (dev-identity/keys.ts); without one it makes a new key at each start. */
function devIdentityKeyFile(config: IdentitySettings): { keyFile?: string } {
  return config.dataDir === undefined ? {} : { keyFile: join(config.dataDir, 'dev-identity', 'signing-key.json') };
}

/** The demo RIS client of the local provider: the FHIR audience its tokens are for, and its secret (null: a random one). */
function demoRisOf(config: IdentitySettings): DemoRisOptions {
  return {
    ...(config.fhirAudience === undefined ? {} : { fhirAudience: config.fhirAudience }),
    clientSecret: config.devRisClientSecret ?? null,
  };
}

export async function openStaffIdentity(
  config: IdentitySettings,
  options: { tls?: DevIdentityProviderOptions['tls'] | 'off'; onError?: (message: string) => void } = {},
): Promise<StaffIdentity> {
  const settings = config.identity;
  if (settings.kind === 'off') {
    return {
      identity: undefined,
      banner: ['  staff sign-in:    off (no IDENTITY_ISSUER)'],
      certificate: null,
      mounted: null,
      close: () => Promise.resolve(),
    };
  }
  if (settings.kind === 'external') {
    return {
      identity: {
        issuer: settings.issuer,
        jwksUri: settings.jwksUri,
        audience: settings.audience,
        roleMapping: settings.roleMapping,
        authorizedParties: [settings.clientId],
        browser: settings.browser,
      },
      banner: [`  staff sign-in:    ${settings.issuer}`],
      certificate: null,
      mounted: null,
      close: () => Promise.resolve(),
    };
  }
  const [{ MOUNTED_IDENTITY_PATH, mountDevIdentityProvider, startDevIdentityProvider }, { devIdentityBannerLines }, { fetchTrusting }] =
    await Promise.all([import('./dev-identity/provider'), import('./dev-identity/banner'), import('./dev-identity/trusted-fetch')]);
  const demoRis = demoRisOf(config);
  if (settings.port === 'portal') {
    // Inside the portal, on its own origin: nothing to accept, and any host name the portal is opened with works.
    const idp = await mountDevIdentityProvider({
      portalUrl: config.publicUrl,
      ris: demoRis,
      ...devIdentityKeyFile(config),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
    const keys = async () => new Response(JSON.stringify({ keys: idp.publicJwks() }), { headers: { 'content-type': 'application/json' } });
    return {
      identity: {
        issuer: idp.issuer,
        // Read in this process (fetchKeys), never over the network: the portal may not reach its own PUBLIC_URL.
        jwksUri: `http://127.0.0.1${MOUNTED_IDENTITY_PATH}/jwks`,
        audience: idp.apiAudience,
        roleMapping: settings.roleMapping,
        authorizedParties: [idp.clientId],
        browser: { clientId: idp.clientId, authority: idp.authority, scope: idp.apiScope, protocolMode: 'OIDC' },
        fetchKeys: keys,
      },
      banner: devIdentityBannerLines(idp).map((line) => `  ${line}`),
      certificate: null,
      mounted: (request, response) => idp.handle(request, response),
      close: () => idp.close(),
    };
  }
  // On a server of its own, MSAL's https authority: a certificate of its own.
  const tls = options.tls ?? 'self-signed';
  const idp = await startDevIdentityProvider({
    port: settings.port,
    portalUrl: config.publicUrl,
    ris: demoRis,
    ...devIdentityKeyFile(config),
    ...(tls === 'off' ? {} : { tls }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const certificate = idp.certificate;
  return {
    identity: {
      issuer: idp.issuer,
      jwksUri: idp.jwksUri,
      audience: idp.apiAudience,
      roleMapping: settings.roleMapping,
      authorizedParties: [idp.clientId],
      browser: { clientId: idp.clientId, authority: idp.issuer, scope: idp.apiScope, protocolMode: 'OIDC' },
      ...(certificate === null ? {} : { fetchKeys: fetchTrusting(certificate) }),
    },
    banner: devIdentityBannerLines(idp).map((line) => `  ${line}`),
    certificate,
    mounted: null,
    close: () => idp.close(),
  };
}
