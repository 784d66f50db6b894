import { request } from 'node:https';

/**
 * A fetch for https URLs that trusts exactly one extra certificate: the local identity provider's
 * self-signed one (DevIdentityProvider.certificate). Node's global fetch takes no CA option. The
 * portal server passes it to jose's createRemoteJWKSet (the `customFetch` option) so it reads the
 * provider's JWKS over TLS; the tests use it as their browser. Redirects are never followed.
 */
export function fetchTrusting(certificate: string) {
  return (
    url: string | URL,
    init: { method?: string; headers?: Headers | Record<string, string>; body?: string; signal?: AbortSignal | null } = {},
  ): Promise<Response> =>
    new Promise((resolve, reject) => {
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const outgoing = request(
        url,
        { method: init.method ?? 'GET', headers, ca: certificate, agent: false, signal: init.signal ?? undefined },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const status = incoming.statusCode ?? 502;
            const responseHeaders = new Headers();
            for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
              responseHeaders.append(incoming.rawHeaders[index] ?? '', incoming.rawHeaders[index + 1] ?? '');
            }
            const noBody = [101, 204, 205, 304].includes(status);
            resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
          });
        },
      );
      outgoing.once('error', reject);
      outgoing.end(init.body);
    });
}
