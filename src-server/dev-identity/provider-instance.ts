import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import { providerConfiguration, type ProviderConfigurationInput } from './configuration';
import { portalOfflineAccessAsConsent } from './offline-access';
import { portalRedirectAllowed } from './portal-origins';
import { PORTAL_CLIENT_ID } from './portal-client';

/**
 * One oidc-provider instance of the local identity provider (provider.ts builds one with the first
 * request and a new one at each key rotation). Kept apart so that oidc-provider loads only then.
 */

export interface ProviderInstance {
  provider: Provider;
  handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
}

export function createProviderInstance(options: {
  issuer: string;
  configuration: ProviderConfigurationInput;
  onError: (message: string) => void;
}): ProviderInstance {
  const provider = new Provider(options.issuer, providerConfiguration(options.configuration));
  const allowed = options.configuration.portalOriginAllowed;
  if (allowed !== undefined) allowOtherPortalOrigins(provider, allowed);
  provider.use(portalOfflineAccessAsConsent);
  provider.on('server_error', (_ctx: unknown, error: unknown) => {
    options.onError(error instanceof Error ? error.message : 'server error');
  });
  return { provider, handler: provider.callback() };
}

/**
 * The portal client's redirect and post-logout URIs on every allowed origin (portal-origins.ts),
 * not only the registered ones: oidc-provider's documented way is to override these checks.
 */
function allowOtherPortalOrigins(provider: Provider, allowed: (origin: string) => boolean): void {
  const client = provider.Client.prototype as unknown as {
    redirectUriAllowed(this: { clientId: string }, value: string): boolean;
    postLogoutRedirectUriAllowed(this: { clientId: string }, value: string): boolean;
  };
  const redirect = client.redirectUriAllowed;
  const postLogout = client.postLogoutRedirectUriAllowed;
  client.redirectUriAllowed = function (value) {
    return redirect.call(this, value) || (this.clientId === PORTAL_CLIENT_ID && portalRedirectAllowed(allowed, value));
  };
  client.postLogoutRedirectUriAllowed = function (value) {
    return postLogout.call(this, value) || (this.clientId === PORTAL_CLIENT_ID && portalRedirectAllowed(allowed, value, ['/', '']));
  };
}
