import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../../src-server/platform/plugins/csrf-guard';

/** The value a response set for a cookie ('' when it cleared it), or null when it did not touch it. */
export function cookieFrom(response: LightMyRequestResponse, name: string): string | null {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const line of lines) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}

export interface CookieBrowser {
  address: string;
  token: string | null;
  request(method: 'GET' | 'POST', url: string, payload?: object, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/**
 * A browser as the web client behaves: one client address, the session cookie `cookieName` it
 * was last given, and the CSRF header on unsafe calls.
 */
export function cookieBrowser(app: FastifyInstance, cookieName: string, address: string): CookieBrowser {
  const self: CookieBrowser = {
    address,
    token: null,
    async request(method, url, payload, headers = {}) {
      const response = await app.inject({
        method,
        url,
        remoteAddress: address,
        headers: {
          ...(method === 'GET' ? {} : { [CSRF_HEADER]: CSRF_HEADER_VALUE }),
          ...(self.token === null ? {} : { cookie: `${cookieName}=${self.token}` }),
          ...headers,
        },
        ...(payload === undefined ? {} : { payload }),
      });
      const token = cookieFrom(response, cookieName);
      if (token !== null) self.token = token === '' ? null : token;
      return response;
    },
  };
  return self;
}
