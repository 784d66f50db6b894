import { createHash, randomBytes } from 'node:crypto';

/**
 * A tiny browser for the tests: Node's fetch, redirects followed by hand, a cookie jar per
 * provider host, and the authorization code + PKCE flow the way MSAL runs it (public client, S256,
 * state and nonce, token request from the portal's origin).
 */

export interface FetchInit {
  method?: string;
  headers?: Headers | Record<string, string>;
  body?: string;
  redirect?: 'manual';
}

export type FetchLike = (url: string | URL, init?: FetchInit) => Promise<Response>;

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** `fetchImpl` is how this browser reaches the provider (fetchTrusting for https). */
  constructor(readonly fetchImpl: FetchLike = (url, init) => fetch(url, init)) {}

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', date = ''] = attribute.trim().split('=');
        return key.toLowerCase() === 'expires' && Date.parse(date) < Date.now();
      });
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export async function browse(jar: CookieJar, url: string, init: RequestInit & { body?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header();
  if (cookie !== '') headers.set('cookie', cookie);
  const response = await jar.fetchImpl(url, { ...init, headers, redirect: 'manual' });
  jar.store(response);
  return response;
}

export function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

export function authorizationRequest(issuer: string, clientId: string, redirectUri: string, scope: string): AuthorizationRequest {
  const codeVerifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const nonce = base64url(randomBytes(16));
  // The endpoints sit under the issuer, which has a path when the provider is mounted (/dev/idp).
  const url = new URL(`${issuer.replace(/\/$/, '')}/auth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    response_mode: 'query',
    scope,
    state,
    nonce,
    code_challenge: base64url(createHash('sha256').update(codeVerifier).digest()),
    code_challenge_method: 'S256',
  }).toString();
  return { url: url.toString(), state, nonce, codeVerifier, redirectUri };
}

/** Follows redirects on the provider until a page answers or the browser is sent to `stopAt`. */
export async function followUntil(jar: CookieJar, start: string, stopAt: string): Promise<{ response: Response; url: string }> {
  let url = start;
  for (let hop = 0; hop < 12; hop += 1) {
    const response = await browse(jar, url);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return { response, url };
    url = new URL(location, url).toString();
    if (url.startsWith(stopAt)) return { response, url };
  }
  throw new Error(`Too many redirects from ${start}`);
}

/** The form action of the sign-in page, absolute. */
export function formAction(html: string, pageUrl: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('No sign-in form on the page');
  return new URL(match[1].replaceAll('&amp;', '&'), pageUrl).toString();
}

export interface SignInResult {
  /** The sign-in page answer when the password was refused. */
  refusedPage?: { status: number; html: string };
  /** The portal redirect URI the browser was finally sent to. */
  redirectedTo?: URL;
}

/** Opens the authorization URL, submits the sign-in form and follows the provider to the portal. */
export async function signIn(jar: CookieJar, request: AuthorizationRequest, username: string, password: string): Promise<SignInResult> {
  const loginPage = await followUntil(jar, request.url, request.redirectUri);
  if (loginPage.response.status !== 200) throw new Error(`Sign-in page answered ${loginPage.response.status}`);
  const html = await loginPage.response.text();
  const submitted = await browse(jar, formAction(html, loginPage.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
  const location = submitted.headers.get('location');
  if (location === null) return { refusedPage: { status: submitted.status, html: await submitted.text() } };
  const next = new URL(location, loginPage.url).toString();
  const finished = next.startsWith(request.redirectUri) ? { url: next } : await followUntil(jar, next, request.redirectUri);
  if (!finished.url.startsWith(request.redirectUri)) throw new Error(`Sign-in ended at ${finished.url}`);
  return { redirectedTo: new URL(finished.url) };
}

export interface TokenResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function exchangeCode(
  issuer: string,
  clientId: string,
  request: AuthorizationRequest,
  code: string,
  origin: string,
  fetchImpl: FetchLike = (url, init) => fetch(url, init),
): Promise<TokenResponse> {
  const response = await fetchImpl(new URL(`${issuer.replace(/\/$/, '')}/token`), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: request.redirectUri,
      code_verifier: request.codeVerifier,
    }).toString(),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}
