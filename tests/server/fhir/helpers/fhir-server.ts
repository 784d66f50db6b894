import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from 'fhir-kit-client';
import { beforeAll, expect } from 'vitest';
import type { DevIdentityProvider } from '../../../../src-server/dev-identity/provider';
import { useTestApp, type TestApp } from '../../helpers/test-app';
import type { Backend } from '../../helpers/database';
import { useDevIdentityProvider } from '../../dev-identity/provider-fixture';

/**
 * The FHIR API as a RIS meets it: the portal listening on a real port, the local demo identity
 * provider on another, and access tokens from that provider's client credentials grant for the
 * demo RIS client. fhirClient() is fhir-kit-client (written by others) pointed at the portal.
 */

export const FHIR_AUDIENCE = 'https://portal.example.test/fhir/R4';
const RIS_SECRET = 'fhir-test-ris-client-secret-0123456789';

/** A free port to give the portal's PUBLIC_URL before it is built (its links are absolute). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface FhirServerFixture {
  server: TestApp;
  idp: DevIdentityProvider;
  /** The portal's FHIR base URL. */
  base(): string;
  /** A fresh access token from the demo provider with these scopes (space-separated). */
  token(scope: string): Promise<string>;
  fhirClient(token?: string): Client;
}

/** `env`: more of the portal's environment (the results integration token, for a test that delivers reports). */
export function useFhirServer(backend: Backend = 'pglite', env: Record<string, string> = {}): FhirServerFixture {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
  });
  const idp = useDevIdentityProvider({
    portalUrl: 'http://127.0.0.1:3000',
    ris: { fhirAudience: FHIR_AUDIENCE, clientSecret: RIS_SECRET },
  });
  const server = useTestApp({
    backend,
    // The provider's tokens carry the real time: the app's clock agrees with it.
    clock: new Date().toISOString(),
    env: () => ({ ...env, PUBLIC_URL: `http://127.0.0.1:${port}`, FHIR_AUDIENCE }),
    identity: () => ({
      issuer: idp.issuer,
      jwksUri: idp.jwksUri,
      audience: idp.apiAudience,
      roleMapping: { roles: {}, groups: {} },
      jwksCooldownMs: 0,
    }),
  });
  beforeAll(async () => {
    await server.app.listen({ port, host: '127.0.0.1' });
  });
  const base = () => `http://127.0.0.1:${port}/fhir/R4`;
  const token = async (scope: string): Promise<string> => {
    const response = await fetch(`${idp.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${idp.risClient.clientId}:${idp.risClient.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: FHIR_AUDIENCE, scope }),
    });
    const body = (await response.json()) as { access_token?: string; error?: string };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.access_token ?? '';
  };
  return {
    server,
    idp,
    base,
    token,
    fhirClient: (bearerToken) => new Client({ baseUrl: base(), ...(bearerToken === undefined ? {} : { bearerToken }) }),
  };
}
