import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient, toApiError } from '../../../src-web/api/client';
import { createConfigApi } from '../../../src-web/api/config-api';
import { SessionStore, type PortalNavigator } from '../../../src-web/stores/session-store';
import { json, startApiServer, text } from '../helpers/api-server';
import { testConfig } from '../helpers/test-config';

/** A navigator that records where the session store sends the browser. */
function recordingNavigator(currentUrl: string): PortalNavigator & { visited: string[] } {
  const visited: string[] = [];
  return { visited, navigate: (to) => visited.push(to), currentUrl: () => currentUrl };
}

async function unauthorizedServer() {
  const unauthorized = { code: 'unauthorized', message: 'Your session has ended' };
  return startApiServer({
    'GET /api/secured/appointments/abc/attachments/response': (_request, response) => json(response, 401, unauthorized),
    'GET /api/authentication': (_request, response) => json(response, 401, unauthorized),
    'GET /api/forbidden': (_request, response) => json(response, 403, { code: 'forbidden', message: 'Not yours' }),
  });
}

/** A signed-in patient's client on `currentUrl`, talking to unauthorizedServer(): the set-up of each 401 rule. */
async function signedInAt(currentUrl: string) {
  const server = await unauthorizedServer();
  const client = createApiClient(server.url);
  const navigator = recordingNavigator(currentUrl);
  const session = new SessionStore(() => navigator);
  client.setSessionHandlers({ logout: () => session.logout(), reauthenticate: () => session.reauthenticate() });
  session.markAuthenticated();
  return { client, navigator, session };
}

describe('api client: 401 rule', () => {
  it('should log out without navigating when any call answers 401', async () => {
    const { client, navigator, session } = await signedInAt('/appointments/abc');

    const error = await client.http.get('/api/secured/appointments/abc/attachments/response').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 401, code: 'unauthorized', message: 'Your session has ended' });
    expect(session.isAuthenticated).toBe(false);
    expect(navigator.visited).toEqual([]);
  });

  it('should re-authenticate with the current URL as returnUrl when the authenticated check answers 401', async () => {
    const { client, navigator, session } = await signedInAt('/appointments/abc?upload=1');

    await expect(client.http.get('/api/authentication', { authCheck: true })).rejects.toBeInstanceOf(ApiError);

    expect(session.isAuthenticated).toBe(false);
    expect(navigator.visited).toEqual(['/authentication?returnUrl=%2Fappointments%2Fabc%3Fupload%3D1']);
  });

  it('should keep the embedded layout when re-authenticating inside /iframe', async () => {
    const { client, navigator } = await signedInAt('/iframe/booking-requests/xyz');

    await client.http.get('/api/authentication', { authCheck: true }).catch(() => undefined);

    expect(navigator.visited).toEqual(['/iframe/authentication?returnUrl=%2Fiframe%2Fbooking-requests%2Fxyz']);
  });

  it('should not send the patient to /authentication again while already there', async () => {
    const { client, navigator } = await signedInAt('/authentication?returnUrl=%2Fa%2Fabc');

    await client.http.get('/api/authentication', { authCheck: true }).catch(() => undefined);

    expect(navigator.visited).toEqual([]);
  });

  it('should neither log out nor re-authenticate on other errors', async () => {
    const { client, navigator, session } = await signedInAt('/appointments/abc');

    const error = await client.http.get('/api/forbidden', { authCheck: true }).catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 403, code: 'forbidden', message: 'Not yours' });
    expect(session.isAuthenticated).toBe(true);
    expect(navigator.visited).toEqual([]);
  });

  it('should send cookies with every request (withCredentials) and hit the server for real', async () => {
    const server = await unauthorizedServer();
    const client = createApiClient(server.url);
    await client.http.get('/api/forbidden').catch(() => undefined);
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/forbidden']);
    expect(client.http.defaults.withCredentials).toBe(true);
  });
});

describe('toApiError', () => {
  it('should parse a JSON error body that arrives as a Blob (downloads)', async () => {
    const server = await startApiServer({
      'GET /api/secured/booking_requests/abc/download': (_request, response) =>
        json(response, 404, { code: 'not_found', message: 'No referral uploaded', details: { slug: 'abc' } }),
    });
    const client = createApiClient(server.url);

    const error = await client.http.get('/api/secured/booking_requests/abc/download', { responseType: 'blob' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'http',
      status: 404,
      code: 'not_found',
      message: 'No referral uploaded',
      details: { slug: 'abc' },
    });
  });

  it('should fall back to the status when a Blob body is not JSON', async () => {
    const server = await startApiServer({
      'GET /file': (_request, response) => text(response, 502, '<html>Bad gateway</html>', 'text/html'),
    });
    const client = createApiClient(server.url);

    const error = await client.http.get('/file', { responseType: 'blob' }).catch((e: unknown) => e);

    expect(error).toMatchObject({ kind: 'http', status: 502, code: 'internal_error', message: 'Request failed with status 502' });
  });

  it('should fall back to the status when a JSON body is not the contract shape', async () => {
    const server = await startApiServer({
      'GET /odd': (_request, response) => json(response, 429, { error: 'slow down' }),
    });
    const client = createApiClient(server.url);
    await expect(client.http.get('/odd')).rejects.toMatchObject({ status: 429, code: 'too_many_requests' });
  });

  it('should report a request that got no answer as a network error', async () => {
    const server = await startApiServer({});
    const url = server.url;
    await server.close();
    const client = createApiClient(url);
    await expect(client.http.get('/api/health')).rejects.toMatchObject({ kind: 'network', status: 0, code: 'service_unavailable' });
  });

  it('should pass ApiErrors through and wrap anything else', async () => {
    const original = new ApiError('http', 409, 'conflict', 'Slot taken');
    expect(await toApiError(original)).toBe(original);
    expect(await toApiError(new Error('boom'))).toMatchObject({ kind: 'network', code: 'internal_error', message: 'boom' });
  });
});

describe('config api', () => {
  it('should parse the bootstrap configuration with the contract schema', async () => {
    const config = testConfig();
    const server = await startApiServer({ 'GET /api/config/bootstrap': (_request, response) => json(response, 200, config) });
    expect(await createConfigApi(createApiClient(server.url)).bootstrap()).toEqual(config);
  });

  it('should reject an answer that does not match the contract', async () => {
    const server = await startApiServer({
      'GET /api/config/theme': (_request, response) => json(response, 200, { colorPrimary: 'blue' }),
    });
    await expect(createConfigApi(createApiClient(server.url)).theme()).rejects.toMatchObject({
      code: 'internal_error',
      message: expect.stringContaining('/api/config/theme'),
    });
  });

  it('should read the terms as text', async () => {
    const server = await startApiServer({
      'GET /api/config/terms': (_request, response) => text(response, 200, '<p>{"not": "json"}</p>'),
    });
    expect(await createConfigApi(createApiClient(server.url)).terms()).toBe('<p>{"not": "json"}</p>');
  });
});

describe('api client: CSRF header', () => {
  it('should send X-Requested-With on unsafe calls (the server refuses cookie-carrying ones without it) and not on reads', async () => {
    const seen: Array<{ method: string; header: string | undefined }> = [];
    const record = (
      request: { method?: string; headers: Record<string, string | string[] | undefined> },
      response: Parameters<typeof json>[0],
    ) => {
      const header = request.headers['x-requested-with'];
      seen.push({ method: request.method ?? '', header: typeof header === 'string' ? header : undefined });
      json(response, 200, {});
    };
    const server = await startApiServer({
      'GET /api/thing': record,
      'POST /api/thing': record,
      'PUT /api/thing': record,
      'DELETE /api/thing': record,
    });
    const client = createApiClient(server.url);
    await client.http.get('/api/thing');
    await client.http.post('/api/thing', { a: 1 });
    await client.http.put('/api/thing', { a: 1 });
    await client.http.delete('/api/thing');
    expect(seen).toEqual([
      { method: 'GET', header: undefined },
      { method: 'POST', header: 'XMLHttpRequest' },
      { method: 'PUT', header: 'XMLHttpRequest' },
      { method: 'DELETE', header: 'XMLHttpRequest' },
    ]);
  });
});
