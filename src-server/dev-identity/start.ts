import { devIdentityBannerLines } from './banner';
import { startDevIdentityProvider } from './provider';

/**
 * Runs the local identity provider on its own:
 *   node --import tsx src-server/dev-identity/start.ts
 * DEV_IDENTITY_PORT (default 3001) is its port; PUBLIC_URL (default http://localhost:3000) is the
 * portal it serves (redirect URIs, CORS origin). It speaks https with a certificate made at start,
 * because MSAL accepts only an https authority; DEV_IDENTITY_TLS=off serves plain http (for
 * clients other than MSAL). Ctrl+C stops it.
 */

const port = Number(process.env.DEV_IDENTITY_PORT ?? '3001');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`DEV_IDENTITY_PORT must be a port number, not ${process.env.DEV_IDENTITY_PORT}`);
  process.exit(1);
}
const portalUrl = process.env.PUBLIC_URL ?? 'http://localhost:3000';

const tls = process.env.DEV_IDENTITY_TLS === 'off' ? undefined : 'self-signed';
const idp = await startDevIdentityProvider({ port, portalUrl, ...(tls === undefined ? {} : { tls }) });
console.log(devIdentityBannerLines(idp).join('\n'));

const stop = (): void => {
  void idp.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
