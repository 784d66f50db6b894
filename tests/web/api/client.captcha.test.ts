import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterEach, describe, expect, it } from 'vitest';
import { CaptchaSolutionSchema } from '@contract/api/captcha';
import { ApiError, createApiClient } from '../../../src-web/api/client';
import { json, startApiServer, type TestApiServer } from '../helpers/api-server';

// The proof-of-work rule of the web client (docs/rules/security.md#proof-of-work-check): a 403
// captcha_required is answered by solving the server's challenge for real (altcha-lib on both
// sides, as the portal server does) and repeating the request once with the X-Captcha header.

const SECRETS = { hmacSignatureSecret: 'signature-secret-for-tests', hmacKeySignatureSecret: 'key-secret-for-tests' };

interface Protected {
  server: TestApiServer;
  /** X-Captcha values the protected route saw, and whether each verified. */
  seen: Array<{ header: string | undefined; verified: boolean }>;
}

async function protectedServer(options: { acceptSolved: boolean }): Promise<Protected> {
  const seen: Protected['seen'] = [];
  const server = await startApiServer({
    'GET /api/captcha/challenge': (_request, response) => {
      void createChallenge({ algorithm: 'PBKDF2/SHA-256', cost: 10, counter: 20, deriveKey, ...SECRETS }).then((challenge) =>
        json(response, 200, challenge),
      );
    },
    'POST /api/booking/holds': (request, response) => {
      const header = request.headers['x-captcha'];
      const value = typeof header === 'string' ? header : undefined;
      const parsed = CaptchaSolutionSchema.safeParse(value === undefined ? null : JSON.parse(Buffer.from(value, 'base64url').toString()));
      const check = parsed.success ? verifySolution({ ...parsed.data, deriveKey, ...SECRETS }) : Promise.resolve({ verified: false });
      void check.then(({ verified }) => {
        seen.push({ header: value, verified });
        if (verified && options.acceptSolved) json(response, 201, { holdId: 'h1' });
        else json(response, 403, { code: 'captcha_required', message: 'Please try again.' });
      });
    },
  });
  return { server, seen };
}

let current: Protected | null = null;
afterEach(async () => {
  await current?.server.close();
  current = null;
});

describe('api client: proof-of-work rule', () => {
  it('solves the challenge and repeats the refused request once with a header the server verifies', async () => {
    current = await protectedServer({ acceptSolved: true });
    const client = createApiClient(current.server.url);
    const checking: boolean[] = [];
    client.setCaptchaHandlers({ enabled: () => true, checking: (active) => checking.push(active) });

    const response = await client.http.post('/api/booking/holds', { slot: 'x' });

    expect(response.status).toBe(201);
    expect(current.seen.map((entry) => entry.verified)).toEqual([false, true]);
    expect(current.seen[0]?.header).toBeUndefined();
    expect(checking).toEqual([true, false]);
  });

  it('repeats only once: a second refusal reaches the caller as captcha_required', async () => {
    current = await protectedServer({ acceptSolved: false });
    const client = createApiClient(current.server.url);
    client.setCaptchaHandlers({ enabled: () => true, checking: () => undefined });

    const error = await client.http.post('/api/booking/holds', {}).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'captcha_required' });
    expect(current.seen).toHaveLength(2);
  });

  it('never solves when the page says not to (the kiosk): the refusal reaches the caller and no challenge is fetched', async () => {
    current = await protectedServer({ acceptSolved: true });
    const client = createApiClient(current.server.url);
    client.setCaptchaHandlers({ enabled: () => false, checking: () => undefined });

    await expect(client.http.post('/api/booking/holds', {})).rejects.toMatchObject({ code: 'captcha_required' });
    expect(current.server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /api/booking/holds']);
  });
});
