import type { KoaRequestContext } from 'oidc-provider';
import { PORTAL_CLIENT_ID } from './portal-client';

/**
 * OpenID Connect Core 11 lets a provider keep `offline_access` only when the request also says
 * prompt=consent, and oidc-provider drops it otherwise. MSAL asks for offline_access on every
 * sign-in without a prompt, and asks for it again on every refresh, which the provider then
 * refuses (the refresh token lacks the scope): silent renewal would never work. The portal is
 * first-party and its consent is granted without a question (interactions.ts), so an
 * authorization request of the portal that asks for offline_access and names no prompt is read
 * as prompt=consent. A request with another prompt (none, login, select_account) keeps it.
 */
export async function portalOfflineAccessAsConsent(ctx: KoaRequestContext, next: () => Promise<void>): Promise<void> {
  if (ctx.method === 'GET' && ctx.path === '/auth') {
    const { client_id: clientId, scope, prompt } = ctx.query;
    if (clientId === PORTAL_CLIENT_ID && typeof scope === 'string' && scope.split(' ').includes('offline_access') && prompt === undefined) {
      ctx.query = { ...ctx.query, prompt: 'consent' };
    }
  }
  await next();
}
