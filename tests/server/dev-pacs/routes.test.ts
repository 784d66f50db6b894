import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_VIEWER_LINK, DemoStudySchema } from '@contract/api/image-viewer';
import { demoStudy, renderStudyImage } from '../../../src-server/dev-pacs/study-images';
import { AUDIT_WINDOW_MS } from '../../../src-server/platform/security-audit';
import { createSignedLinks, signedLinkKeysFromConfig, type SignRequest } from '../../../src-server/platform/signed-links';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';
import { readGreyscalePng } from './png-reader';

// The demo image viewer's API (src-server/dev-pacs/routes.ts) on the real app: a demo viewer
// link the server signed opens the study and its images; a changed, expired, foreign or
// other-purpose link is a 403 with a clear message, audited without the token.

const SESSION_SECRET = 'demo-pacs-routes-session-secret-0123456789abcdef';
const UID = '2.25.38584323566160511800902969745502384716';
const MINUTE = 60_000;

describe.each(backends())('demo viewer routes on %s', (backend) => {
  const server = useTestApp({ backend, env: { SESSION_SECRET } });
  // A new audit minute per test: the audit keeps at most 10 refusals per client and minute.
  beforeEach(() => server.clock.advance(AUDIT_WINDOW_MS));

  /** Signs as the server does: the key derived from its secret (no keys configured), its clock. */
  const sign = (overrides: Partial<SignRequest> = {}, secret = SESSION_SECRET): string =>
    createSignedLinks({ keys: signedLinkKeysFromConfig(undefined, secret), clock: server.clock }).sign({
      ...DEMO_VIEWER_LINK,
      subject: UID,
      ttlMs: 10 * MINUTE,
      ...overrides,
    });

  const study = (token: string) => server.app.inject({ method: 'GET', url: `/api/demo-viewer/study?token=${encodeURIComponent(token)}` });
  const image = (index: string | number, token: string) =>
    server.app.inject({ method: 'GET', url: `/api/demo-viewer/images/${index}?token=${encodeURIComponent(token)}` });

  const lastRefusal = async () => {
    const [row] = await server.db.query<{ details: { reason?: string; route?: string } & Record<string, unknown> }>(
      `select details from audit_log where action = 'authorization_failed' order by id desc limit 1`,
    );
    return row?.details;
  };

  it('answers the study a valid link names, never cached', async () => {
    const response = await study(sign());
    expect(response.statusCode, response.body).toBe(200);
    expect(DemoStudySchema.parse(response.json())).toEqual(demoStudy(UID));
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('answers each image of the study as a PNG, privately cacheable for 5 minutes, not sniffable', async () => {
    const token = sign();
    for (const { index } of demoStudy(UID).images) {
      const response = await image(index, token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['cache-control']).toBe('private, max-age=300');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.rawPayload.equals(renderStudyImage(UID, index) ?? Buffer.alloc(0))).toBe(true);
      expect(readGreyscalePng(response.rawPayload)).toMatchObject({ width: 512, height: 512 });
    }
  });

  it('answers 404 for an image number past the end of the study, and 400 for one that is not a number', async () => {
    const token = sign();
    const count = demoStudy(UID).images.length;
    const past = await image(count, token);
    expect(past.statusCode).toBe(404);
    expect(past.json()).toMatchObject({ code: 'not_found' });
    expect(past.headers['cache-control']).toBe('no-store');
    for (const bad of ['x', '-1', '01', '100', '1.5']) expect((await image(bad, token)).statusCode, bad).toBe(400);
  });

  it('refuses a link with one character changed (403), with a clear message, audited without the token', async () => {
    const token = sign();
    // A character in the middle of the payload, changed to another of the alphabet.
    const at = Math.floor(token.length / 2);
    const flipped = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    for (const response of [await study(flipped), await image(0, flipped)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ code: 'forbidden', message: expect.stringMatching(/link is not valid/) });
    }
    const details = await lastRefusal();
    expect(details?.reason).toMatch(/^demo_viewer_link_(bad_signature|malformed)$/);
    expect(JSON.stringify(details)).not.toContain(flipped.slice(0, 40));
  });

  it('refuses an expired link (403) saying it has expired', async () => {
    const token = sign({ ttlMs: MINUTE });
    expect((await study(token)).statusCode).toBe(200);
    server.clock.advance(MINUTE);
    for (const response of [await study(token), await image(0, token)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json<{ message: string }>().message).toMatch(/expired/);
    }
    expect((await lastRefusal())?.reason).toBe('demo_viewer_link_expired');
  });

  it.each([
    ['another purpose', { purpose: 'imsec.view' }, 'demo_viewer_link_wrong_purpose'],
    ['another audience', { audience: 'referrer-portal' }, 'demo_viewer_link_wrong_audience'],
  ])('refuses a link for %s (403)', async (_case, overrides, reason) => {
    const token = sign(overrides);
    expect((await study(token)).statusCode).toBe(403);
    expect((await image(0, token)).statusCode).toBe(403);
    expect((await lastRefusal())?.reason).toBe(reason);
  });

  it('refuses a link signed with another secret (403)', async () => {
    const token = sign({}, 'another-server-secret-0123456789abcdefghijkl');
    expect((await study(token)).statusCode).toBe(403);
    expect((await lastRefusal())?.reason).toBe('demo_viewer_link_bad_signature');
  });

  it('refuses a missing link or one that is no link at all (403), audited as malformed', async () => {
    for (const response of [
      await server.app.inject({ method: 'GET', url: '/api/demo-viewer/study' }),
      await server.app.inject({ method: 'GET', url: '/api/demo-viewer/images/0' }),
      await study('v1.hkdf1.a b.c'),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json<{ message: string }>().message).toMatch(/link is not valid/);
    }
    expect((await lastRefusal())?.reason).toBe('demo_viewer_link_malformed');
  });

  it('answers 400 for a link longer than any signed link, or with another query parameter', async () => {
    expect((await study('x'.repeat(1025))).statusCode).toBe(400);
    const extra = await server.app.inject({ method: 'GET', url: `/api/demo-viewer/study?token=${sign()}&study=${UID}` });
    expect(extra.statusCode).toBe(400);
  });
});
