import type { Config } from './config';
import { devIdentityBannerLines } from './dev-identity/banner';
import { startDevIdentityProvider, type DevIdentityProviderOptions } from './dev-identity/provider';
import { fetchTrusting } from './dev-identity/trusted-fetch';
import type { StaffIdentityOptions } from './modules/staff-access/routes';

/**
 * Staff sign-in as the configuration says (src-server/config-identity.ts): the provider's own
 * identity provider, or the local demo one started here beside the server (docs/identity.md), or
 * none. Answers what buildServer needs (ServerDeps.identity), the lines for the start-up banner,
 * and how to stop the local provider.
 */

export interface StaffIdentity {
  identity: StaffIdentityOptions | undefined;
  banner: string[];
  /** The local provider's self-signed certificate (its clients must trust it); null otherwise. */
  certificate: string | null;
  close(): Promise<void>;
}

export async function openStaffIdentity(
  config: Pick<Config, 'identity' | 'publicUrl'>,
  options: { tls?: DevIdentityProviderOptions['tls'] | 'off'; onError?: (message: string) => void } = {},
): Promise<StaffIdentity> {
  const settings = config.identity;
  if (settings.kind === 'off') {
    return {
      identity: undefined,
      banner: ['  staff sign-in:    off (no IDENTITY_ISSUER)'],
      certificate: null,
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
      close: () => Promise.resolve(),
    };
  }
  // MSAL accepts only an https authority, so the demo provider serves https with a certificate of its own.
  const tls = options.tls ?? 'self-signed';
  const idp = await startDevIdentityProvider({
    port: settings.port,
    portalUrl: config.publicUrl,
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
    close: () => idp.close(),
  };
}
