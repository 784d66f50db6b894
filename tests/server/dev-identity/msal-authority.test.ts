import { AuthorityFactory, Logger, ProtocolMode, StubPerformanceClient } from '@azure/msal-common';
import { describe, expect, it } from 'vitest';
import type { DevIdentityProvider } from '../../../src-server/dev-identity/provider';
import { fetchTrusting } from '../../../src-server/dev-identity/trusted-fetch';
import { useDevIdentityProvider } from './provider-fixture';

/**
 * MSAL's own authority code (@azure/msal-common, under @azure/msal-browser) resolving the local
 * provider the way the browser does in OIDC protocol mode: https only, discovery, issuer check.
 */

const PORTAL = 'http://localhost:3995';

const httpsIdp = useDevIdentityProvider({ portalUrl: PORTAL, tls: 'self-signed' });
const httpIdp = useDevIdentityProvider({ portalUrl: PORTAL });

function resolveWithMsal(idp: DevIdentityProvider) {
  const fetchImpl = idp.certificate === null ? fetch : fetchTrusting(idp.certificate);
  const network = {
    async sendGetRequestAsync<T>(url: string, options?: { headers?: Record<string, string> }) {
      const response = await fetchImpl(url, { headers: options?.headers ?? {} });
      return { headers: {}, body: (await response.json()) as T, status: response.status };
    },
    sendPostRequestAsync(): Promise<never> {
      throw new Error('discovery makes no POST');
    },
  };
  const metadata = new Map<string, unknown>();
  const cache = {
    generateAuthorityMetadataCacheKey: (authority: string) => `authority-${authority}`,
    getAuthorityMetadataByAlias: (alias: string) => metadata.get(alias) ?? null,
    setAuthorityMetadata: (key: string, entity: unknown) => metadata.set(key, entity),
  };
  return AuthorityFactory.createDiscoveredInstance(
    idp.issuer,
    network,
    cache as never,
    {
      protocolMode: ProtocolMode.OIDC,
      knownAuthorities: [new URL(idp.issuer).host],
      cloudDiscoveryMetadata: '',
      authorityMetadata: '',
    },
    new Logger({}),
    'dev-identity-test',
    new StubPerformanceClient(),
  );
}

describe('local identity provider as an MSAL authority', () => {
  it('is accepted over https, with the endpoints MSAL will call', async () => {
    const authority = await resolveWithMsal(httpsIdp);
    expect(authority.authorizationEndpoint).toBe(`${httpsIdp.issuer}/auth`);
    expect(authority.tokenEndpoint).toBe(`${httpsIdp.issuer}/token`);
    expect(authority.endSessionEndpoint).toBe(`${httpsIdp.issuer}/session/end`);
  });

  it('is refused over plain http, which is why the demo serves https', async () => {
    await expect(resolveWithMsal(httpIdp)).rejects.toThrow(/authority_uri_insecure|https/i);
  });
});
