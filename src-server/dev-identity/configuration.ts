import type { JWK } from 'jose';
import { errors, type KoaContextWithOidc, type TokenForClaims } from 'oidc-provider';
import { accessTokenClaims, identityClaims, type DemoIdentityAccount } from './accounts';
import { errorPage, loggedOutPage, logoutPage } from './pages';
import {
  FHIR_SCOPES,
  PORTAL_API_RESOURCE,
  PORTAL_API_SCOPE,
  PORTAL_CLIENT_ID,
  PORTAL_REDIRECT_PATHS,
  RIS_CLIENT_ID,
} from './portal-client';

export const TOKEN_LIFETIMES_SECONDS = {
  AccessToken: 60 * 60,
  ClientCredentials: 60 * 60,
  IdToken: 60 * 60,
  AuthorizationCode: 60,
  Interaction: 10 * 60,
  Session: 8 * 60 * 60,
  Grant: 8 * 60 * 60,
  RefreshToken: 24 * 60 * 60,
} as const;

export interface ProviderConfigurationInput {
  /** Origin of the portal, e.g. http://127.0.0.1:3000 (no trailing slash). */
  portalOrigin: string;
  accounts: readonly DemoIdentityAccount[];
  /** Private signing keys, the signing key first (keys.ts). */
  jwks: JWK[];
  /** Keys that sign the provider's own cookies; kept across key rotations. */
  cookieKeys: string[];
  /**
   * Over https the provider's cookies are SameSite=None; Secure, so MSAL's hidden-frame silent
   * sign-in (the provider page inside the portal page, another site) still carries the session.
   */
  secureCookies: boolean;
  /** oidc-provider's storage adapter class (store.ts); the same one across key rotations. */
  adapter: unknown;
  /** The path the provider is mounted under ('' on a server of its own, '/dev/idp' inside the portal). */
  base: string;
  /**
   * Other origins the portal is opened with (127.0.0.1 where PUBLIC_URL says localhost, the
   * machine's address): the browser there may sign in and call the token endpoint too (portal-origins.ts).
   */
  portalOriginAllowed?: (origin: string) => boolean;
  /** The FHIR API's audience (FHIR_AUDIENCE): the resource the RIS client gets access tokens for. */
  fhirAudience: string;
  /** The RIS client's secret, sent with HTTP Basic authentication (client_secret_basic). */
  risClientSecret: string;
}

/** The redirect URIs registered for the portal client, in the order of PORTAL_REDIRECT_PATHS. */
export function portalRedirectUris(portalOrigin: string): string[] {
  return PORTAL_REDIRECT_PATHS.map((path) => `${portalOrigin}${path}`);
}

function accountBySub(accounts: readonly DemoIdentityAccount[], sub: string | undefined) {
  return sub === undefined ? undefined : accounts.find((account) => account.sub === sub);
}

/**
 * The two resources, each for its own client: the portal API for the portal's browser client, the
 * FHIR API for the RIS; a token for anything else is refused (invalid_target).
 */
async function resourceServerInfo(resourceIndicator: string, clientId: string, fhirAudience: string) {
  const token = { accessTokenTTL: TOKEN_LIFETIMES_SECONDS.AccessToken, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
  if (resourceIndicator === PORTAL_API_RESOURCE && clientId === PORTAL_CLIENT_ID)
    return { ...token, scope: PORTAL_API_SCOPE, audience: PORTAL_API_RESOURCE };
  if (resourceIndicator === fhirAudience && clientId === RIS_CLIENT_ID) return { ...token, scope: FHIR_SCOPES, audience: fhirAudience };
  throw new errors.InvalidTarget(`unknown resource ${resourceIndicator}`);
}

/**
 * The oidc-provider configuration, shaped after what MSAL (@azure/msal-browser, OIDC protocol
 * mode) needs from an authority: discovery, authorization code with PKCE for a public client,
 * RS256-signed JWT id and access tokens, refresh tokens for silent renewal, CORS on the token
 * endpoint for the portal's origin, and the end-session endpoint for logout.
 */
export function providerConfiguration(input: ProviderConfigurationInput): Record<string, unknown> {
  const { accounts, portalOrigin } = input;
  return {
    clients: [
      {
        client_id: PORTAL_CLIENT_ID,
        client_name: 'Radiology patient portal',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: portalRedirectUris(portalOrigin),
        post_logout_redirect_uris: [portalOrigin, `${portalOrigin}/`],
      },
      {
        client_id: RIS_CLIENT_ID,
        client_name: 'Demo RIS',
        client_secret: input.risClientSecret,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
      },
    ],
    adapter: input.adapter,
    jwks: { keys: input.jwks },
    cookies: {
      keys: input.cookieKeys,
      ...(input.secureCookies
        ? {
            long: { httpOnly: true, sameSite: 'none', secure: true },
            short: { httpOnly: true, sameSite: 'none', secure: true },
          }
        : {}),
    },
    pkce: { methods: ['S256'], required: () => true },
    responseTypes: ['code'],
    // Browsers call the token endpoint directly from the portal page; only the portal may.
    clientBasedCORS: (_ctx: unknown, origin: string, client: { clientId: string }) =>
      client.clientId === PORTAL_CLIENT_ID && (origin === portalOrigin || (input.portalOriginAllowed?.(origin) ?? false)),
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: {
      openid: ['sub', 'oid', 'roles', 'groups'],
      profile: ['name', 'preferred_username', 'given_name', 'family_name', 'organization', 'provider_number'],
    },
    // MSAL reads the person from the id_token of the code exchange, as Entra ID sends it, so the
    // id_token carries every claim its scopes allow, not only those the claims parameter names.
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, sub: string) {
      const account = accountBySub(accounts, sub);
      if (account === undefined) return undefined;
      return { accountId: account.sub, claims: () => identityClaims(account) };
    },
    async extraTokenClaims(_ctx: unknown, token: TokenForClaims) {
      if (token.kind !== 'AccessToken') return undefined;
      const account = accountBySub(accounts, token.accountId);
      if (account === undefined) return undefined;
      const shortScopes = (token.scope ?? '')
        .split(' ')
        .filter((scope) => scope.startsWith(`${PORTAL_API_RESOURCE}/`))
        .map((scope) => scope.slice(PORTAL_API_RESOURCE.length + 1));
      return { ...accessTokenClaims(account), scp: shortScopes.join(' ') };
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: KoaContextWithOidc, form: string) {
          ctx.type = 'html';
          ctx.body = logoutPage(form, ctx.host, input.base);
        },
        async postLogoutSuccessSource(ctx: KoaContextWithOidc) {
          ctx.type = 'html';
          ctx.body = loggedOutPage(ctx.oidc.client?.clientName, input.base);
        },
      },
      // The RIS gets access tokens for the FHIR API with its own id and secret (no person signs in).
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // MSAL sends no `resource` parameter: every request is for the portal API (the RIS's for the FHIR API).
        defaultResource: async (_ctx: unknown, client: { clientId: string }) =>
          client.clientId === RIS_CLIENT_ID ? input.fhirAudience : PORTAL_API_RESOURCE,
        // ...and the code exchange gets an access token for the portal API, not for userinfo.
        useGrantedResource: async () => true,
        getResourceServerInfo: (_ctx: unknown, resourceIndicator: string, client: { clientId: string }) =>
          resourceServerInfo(resourceIndicator, client.clientId, input.fhirAudience),
      },
    },
    // oidc-provider drops offline_access unless the request says prompt=consent (OpenID Connect
    // Core 11), which MSAL never sends; like Entra ID, the portal's client gets a refresh token for
    // silent renewal anyway. Without offline_access it ends with the provider session (logout).
    issueRefreshToken: async (_ctx: unknown, client: { clientId: string; grantTypeAllowed(type: string): boolean }) =>
      client.clientId === PORTAL_CLIENT_ID && client.grantTypeAllowed('refresh_token'),
    ttl: { ...TOKEN_LIFETIMES_SECONDS },
    interactions: { url: async (_ctx: unknown, interaction: { uid: string }) => `${input.base}/interaction/${interaction.uid}` },
    async renderError(ctx: KoaContextWithOidc, out: Record<string, string>) {
      ctx.type = 'html';
      ctx.body = errorPage(out, input.base);
    },
  };
}
