import type { DevIdentityProvider } from './provider';

/**
 * The lines printed when the local identity provider starts: where it is, what the portal must be
 * configured with, and the demo accounts. The passwords are the public demo values of
 * resources/demo-provider/identity-accounts.json, never a real person's.
 */
export function devIdentityBannerLines(idp: DevIdentityProvider): string[] {
  const width = Math.max(...idp.accounts.map((account) => account.username.length));
  const passwordWidth = Math.max(...idp.accounts.map((account) => account.password.length));
  return [
    `Local identity provider (demo only) at ${idp.issuer}`,
    `  authority: ${idp.authority}   client id: ${idp.clientId}   API scope: ${idp.apiScope}`,
    `  JWKS: ${idp.jwksUri}`,
    `  demo RIS (FHIR API, client credentials): client id ${idp.risClient.clientId}   secret: ${idp.risClient.clientSecret}`,
    `    token audience (resource): ${idp.risClient.fhirAudience}`,
    ...(idp.certificate === null ? [] : [`  its certificate is self-signed and new at each start: open ${idp.issuer} once and accept it`]),
    '  demo accounts (username / password / roles):',
    ...idp.accounts.map(
      (account) => `    ${account.username.padEnd(width)}  ${account.password.padEnd(passwordWidth)}  ${account.roles.join(', ')}`,
    ),
  ];
}
