import type { ServerDeps } from '../../../src-server/app';
import { DEFAULT_ROLE_MAP, parseRoleMap } from '../../../src-server/config-identity';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../../src-server/dev-identity/provider';
import { authorizationRequest, CookieJar, exchangeCode, signIn } from '../../server/dev-identity/oidc-client';

/** Where the benchmarks tell the local identity provider the portal is (its redirect URIs). */
export const BENCH_PORTAL = 'http://localhost:3000';

/** A real access token for a demo account: authorization code with PKCE, as MSAL gets one. */
export async function accessToken(idp: DevIdentityProvider, username: string): Promise<string> {
  const account = idp.accounts.find((candidate) => candidate.username === username);
  if (account === undefined) throw new Error(`no demo account ${username}`);
  const request = authorizationRequest(idp.issuer, idp.clientId, `${BENCH_PORTAL}/auth/redirect`, `openid profile ${idp.apiScope}`);
  const result = await signIn(new CookieJar(), request, account.username, account.password);
  const code = result.redirectedTo?.searchParams.get('code');
  if (!code) throw new Error(`the provider did not sign ${username} in`);
  const tokens = await exchangeCode(idp.issuer, idp.clientId, request, code, BENCH_PORTAL);
  if (tokens.status !== 200) throw new Error(`the token endpoint answered ${tokens.status}`);
  return String(tokens.body.access_token);
}

/** The server's staff sign-in against the local provider, as main.ts configures it (the default role map). */
export function benchIdentity(idp: DevIdentityProvider): NonNullable<ServerDeps['identity']> {
  return {
    issuer: idp.issuer,
    jwksUri: idp.jwksUri,
    audience: idp.apiAudience,
    authorizedParties: [idp.clientId],
    roleMapping: parseRoleMap(DEFAULT_ROLE_MAP, (name, message) => {
      throw new Error(`${name}: ${message}`);
    }),
  };
}

/** Runs `work` with the local identity provider started on a free port, and stops it after. */
export async function withDemoIdentityProvider<T>(work: (idp: DevIdentityProvider) => Promise<T>): Promise<T> {
  const idp = await startDevIdentityProvider({ port: 0, portalUrl: BENCH_PORTAL });
  try {
    return await work(idp);
  } finally {
    await idp.close();
  }
}
