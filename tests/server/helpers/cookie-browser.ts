import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
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

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names in lower case, with their values ('' for flags). */
  attributes: Map<string, string>;
}

/** The one cookie a response set, with its attributes (the test fails unless exactly one was set). */
export function parseSetCookie(response: LightMyRequestResponse): SetCookie {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  expect(lines).toHaveLength(1);
  const [pair = '', ...rest] = String(lines[0]).split(';');
  const at = pair.indexOf('=');
  const attributes = new Map<string, string>();
  for (const part of rest) {
    const [name = '', ...value] = part.trim().split('=');
    attributes.set(name.toLowerCase(), value.join('='));
  }
  return { name: pair.slice(0, at).trim(), value: pair.slice(at + 1).trim(), attributes };
}

/** A session cookie named `name` as the __Host- prefix and a framed portal need it, living as long as the browser. */
export function expectHostSessionCookie(cookie: SetCookie, name: string): void {
  expect(cookie.name).toBe(name);
  expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // What the __Host- prefix demands: Secure, Path=/ and no Domain.
  expect(cookie.attributes.get('path')).toBe('/');
  expect(cookie.attributes.has('domain')).toBe(false);
  expect(cookie.attributes.get('secure')).toBe('');
  expect(cookie.attributes.get('httponly')).toBe('');
  expect(cookie.attributes.get('samesite')).toBe('None');
  expect(cookie.attributes.get('partitioned')).toBe('');
  expect(cookie.attributes.has('max-age')).toBe(false);
}

export interface CookieBrowser {
  address: string;
  token: string | null;
  request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
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
