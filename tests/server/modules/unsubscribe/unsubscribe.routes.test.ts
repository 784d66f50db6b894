import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESUBSCRIBE_API_PATH, UNSUBSCRIBE_API_PATH } from '@contract/api/unsubscribe';
import { UNSUBSCRIBE_URL_PLACEHOLDER } from '../../../../src-server/modules/notifications/public';
import { UNSUBSCRIBE_LINK_TTL_MS } from '../../../../src-server/modules/unsubscribe/public';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { startTestSmtpServer, type TestSmtpServer } from '../../helpers/test-smtp-server';
import { alteredAt, oneClickOf, queueMail, recipientRows, sendQueued, SIGNING_KEY, testSignedLinks } from './unsubscribe-kit';

// The one-click unsubscribe link (docs/rules/notifications.md#unsubscribe): signed, for this
// purpose only, refused when any character changes; the RFC 8058 POST works without a cookie and
// again and again; GET never unsubscribes.

const ADDRESS = 'Lena.Unsub@Example.com';

describe.each(backends())('one-click unsubscribe on %s', (backend) => {
  const server = useTestApp({ backend, env: { SIGNED_LINK_KEYS: SIGNING_KEY } });
  let smtp: TestSmtpServer;
  let token = '';

  const query = (value: string) => `?token=${encodeURIComponent(value)}`;
  const get = (value: string) => server.app.inject({ method: 'GET', url: `${UNSUBSCRIBE_API_PATH}${query(value)}` });
  const oneClick = (value: string, payload = 'List-Unsubscribe=One-Click') =>
    server.app.inject({
      method: 'POST',
      url: `${UNSUBSCRIBE_API_PATH}${query(value)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
  const unsubscribedCount = async () =>
    (await server.db.query<{ count: number }>(`select count(*)::int as count from mail_recipient where unsubscribed_at is not null`))[0]
      ?.count;

  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    smtp = await startTestSmtpServer();
    const footer = `Unsubscribe: ${UNSUBSCRIBE_URL_PLACEHOLDER}`;
    await queueMail(
      server.db,
      'results_ready',
      ADDRESS,
      `<p><a href="${UNSUBSCRIBE_URL_PLACEHOLDER}">Unsubscribe</a></p>`,
      footer,
      server.clock.now(),
    );
    await sendQueued(server.app, server.db, smtp, server.clock.now());
    const [mail] = await smtp.waitForMails(1);
    if (mail === undefined) throw new Error('no mail arrived');
    token = oneClickOf(mail).token;
  });
  afterAll(async () => {
    await smtp.stop();
  });

  it('should name the recipient by an opaque row id, never the address, in a token signed for unsubscribing only', async () => {
    expect(token).toMatch(/^v1\.k1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const payload = Buffer.from(token.split('.')[2] ?? '', 'base64url').toString('utf8');
    expect(payload.toLowerCase()).not.toContain('lena');
    expect(payload.toLowerCase()).not.toContain('example.com');
    expect(JSON.parse(payload)).toMatchObject({ purpose: 'mail.unsubscribe', aud: 'mail-recipient' });
    const claims = JSON.parse(payload) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(UNSUBSCRIBE_LINK_TTL_MS);
    expect(await recipientRows(server.db)).toEqual([{ address: 'lena.unsub@example.com', unsubscribed: false }]);
  });

  it('should describe the link on GET, masked, and change nothing (link scanners fetch every GET)', async () => {
    for (let index = 0; index < 3; index += 1) {
      const described = await get(token);
      expect(described.statusCode, described.body).toBe(200);
      expect(described.json()).toEqual({ address: 'l***@example.com', unsubscribed: false });
      expect(described.headers['cache-control']).toBe('no-store');
    }
    expect(await unsubscribedCount()).toBe(0);
  });

  it('should refuse a token with any one character changed, of the payload, the key id or the signature (400, nothing changed)', async () => {
    const [, kid = '', payload = ''] = token.split('.');
    const payloadStart = 'v1.'.length + kid.length + 1;
    const signatureStart = payloadStart + payload.length + 1;
    const altered = [
      alteredAt(token, payloadStart + 5),
      alteredAt(token, payloadStart + Math.floor(payload.length / 2)),
      alteredAt(token, signatureStart + 3),
      alteredAt(token, token.length - 2),
      token.replace('v1.k1.', 'v1.k2.'),
      `${token}A`,
      token.slice(0, -1),
    ];
    for (const bad of altered) {
      expect(bad).not.toBe(token);
      for (const response of [await get(bad), await oneClick(bad)]) {
        expect(response.statusCode, bad).toBe(400);
        expect(response.json()).toMatchObject({ code: 'unsubscribe_link_invalid' });
        expect(response.json<{ message: string }>().message).toMatch(/not valid/);
      }
    }
    expect(await unsubscribedCount()).toBe(0);
  });

  it('should refuse a token signed for another purpose here, and an unsubscribe token as an image viewer link', async () => {
    const links = testSignedLinks(() => server.clock.now());
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from mail_recipient`);
    const subject = row?.id ?? '';
    const foreign = [
      links.sign({ purpose: 'imsec.view', audience: 'patient', subject, ttlMs: 60_000 }),
      links.sign({ purpose: 'imsec.view', audience: 'referrer', subject, ttlMs: 60_000 }),
      links.sign({ purpose: 'mail.unsubscribe', audience: 'patient', subject, ttlMs: 60_000 }),
    ];
    for (const bad of foreign) {
      const response = await oneClick(bad);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'unsubscribe_link_invalid' });
    }
    expect(await unsubscribedCount()).toBe(0);
    // And the other way round: the quick report refuses the unsubscribe token as its imsec.
    const report = await server.app.inject({ method: 'GET', url: `/api/image_viewer_link/report?imsec=${encodeURIComponent(token)}` });
    expect([400, 403]).toContain(report.statusCode);
  });

  it('should refuse a missing token, another query parameter, and a form body other than RFC 8058s', async () => {
    const missing = await server.app.inject({ method: 'POST', url: UNSUBSCRIBE_API_PATH, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'validation_failed' });
    const extra = await server.app.inject({
      method: 'POST',
      url: `${UNSUBSCRIBE_API_PATH}${query(token)}&email=x@example.com`,
      payload: {},
    });
    expect(extra.statusCode).toBe(400);
    const wrongBody = await oneClick(token, 'List-Unsubscribe=Everything');
    expect(wrongBody.statusCode).toBe(400);
    expect(wrongBody.json()).toMatchObject({ code: 'validation_failed' });
    expect(await unsubscribedCount()).toBe(0);
  });

  it('should unsubscribe on the RFC 8058 one-click POST without any cookie, idempotently, audited once by row id', async () => {
    const first = await oneClick(token);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ address: 'l***@example.com', unsubscribed: true });
    const again = await oneClick(token);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ address: 'l***@example.com', unsubscribed: true });
    // A provider's POST without a body, and the page's JSON post, say the same.
    const bodiless = await server.app.inject({ method: 'POST', url: `${UNSUBSCRIBE_API_PATH}${query(token)}` });
    expect(bodiless.statusCode, bodiless.body).toBe(200);
    const fromPage = await server.app.inject({ method: 'POST', url: `${UNSUBSCRIBE_API_PATH}${query(token)}`, payload: {} });
    expect(fromPage.statusCode).toBe(200);
    expect(await recipientRows(server.db)).toEqual([{ address: 'lena.unsub@example.com', unsubscribed: true }]);
    const audit = await server.db.query<{ action: string; subject_id: string; details: unknown }>(
      `select action, subject_id, details from audit_log where action like 'mail.%'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.action).toBe('mail.unsubscribed');
    expect(JSON.stringify(audit)).not.toContain('example.com');
    expect((await get(token)).json()).toEqual({ address: 'l***@example.com', unsubscribed: true });
  });

  it('should subscribe again with the same link, idempotently', async () => {
    const url = `${RESUBSCRIBE_API_PATH}${query(token)}`;
    const back = await server.app.inject({ method: 'POST', url, payload: {} });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toEqual({ address: 'l***@example.com', unsubscribed: false });
    const bodiless = await server.app.inject({ method: 'POST', url });
    expect(bodiless.statusCode, bodiless.body).toBe(200);
    expect(await unsubscribedCount()).toBe(0);
    expect((await server.db.query(`select 1 from audit_log where action = 'mail.resubscribed'`)).length).toBe(1);
  });

  it('should refuse the link once its year is over', async () => {
    server.clock.set(new Date(Date.parse(SEED_NOW) + UNSUBSCRIBE_LINK_TTL_MS + 1000).toISOString());
    const late = await oneClick(token);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'unsubscribe_link_invalid' });
    expect(await unsubscribedCount()).toBe(0);
    server.clock.set(SEED_NOW);
  });
});
