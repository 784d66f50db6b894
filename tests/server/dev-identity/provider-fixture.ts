import { afterAll, beforeAll } from 'vitest';
import {
  startDevIdentityProvider,
  type DevIdentityProvider,
  type DevIdentityProviderOptions,
} from '../../../src-server/dev-identity/provider';

/** What the portal asks the provider for: sign-in, a refresh token, and an access token for its API. */
export const PORTAL_SCOPE = 'openid profile offline_access api://portal/access_as_user';

/**
 * The local identity provider for this file, on a free port, started in beforeAll and closed in
 * afterAll. Its fields are filled in when it starts, so read them inside hooks and tests only.
 */
export function useDevIdentityProvider(options: Omit<DevIdentityProviderOptions, 'port'>): DevIdentityProvider {
  const idp = {} as DevIdentityProvider;
  beforeAll(async () => {
    // The provider is a plain object of values and closures: copying its fields keeps it whole.
    Object.assign(idp, await startDevIdentityProvider({ port: 0, onError: () => undefined, ...options }));
  });
  afterAll(async () => {
    // Not started when its beforeAll failed: that failure is the one to see.
    if ('close' in idp) await idp.close();
  });
  return idp;
}
