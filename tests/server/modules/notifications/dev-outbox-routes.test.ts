import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { ApiErrorBodySchema } from '@contract/errors';
import { queueBookingConfirmation, type BookingConfirmation } from '../../../../src-server/modules/notifications/booking-confirmation';
import { createTestClock } from '../../../../src-server/platform/clock';
import { createOutboxRepository } from '../../../../src-server/platform/outbox/outbox-repository';
import { buildTestServer, testConfig } from '../../helpers/build-server';
import { backends } from '../../helpers/database';
import { useTestApp, useTestDatabase } from '../../helpers/test-app';

const HOSTILE = '<script>alert("outbox")</script>';

const confirmation: BookingConfirmation = {
  bookingKey: 'Dev0utb0xKey_1234567890',
  patient: { firstName: HOSTILE, lastName: 'Citizen', email: 'dev.outbox@example.com' },
  clinic: { name: 'North <b>Imaging</b>', address: '2 High St', timeZone: 'Australia/Sydney' },
  appointments: [{ examName: 'CT Head', modalityName: 'CT', startsAt: '2026-03-20T23:00:00.000Z', endsAt: '2026-03-20T23:20:00.000Z' }],
  staffBooking: false,
};

const PATHS = ['/api/dev/outbox', '/api/dev/outbox/1', '/dev/outbox', '/dev/outbox/1', '/dev/outbox/1/html', '/dev/outbox/1/attachments/0'];

describe.each(backends())('development outbox on %s', (backend) => {
  const server = useTestApp({ backend, env: { MAIL_DEV_OUTBOX_ENABLED: 'true' } });
  let mailId = 0;

  it('should say there is no mail yet on an empty outbox', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(response.statusCode).toBe(200);
    expect(new JSDOM(response.body).window.document.querySelector('main p:last-of-type')?.textContent).toBe('No mail yet.');
    expect((await server.app.inject({ method: 'GET', url: '/api/dev/outbox' })).json()).toEqual({ mails: [] });
  });

  it('should list recent mails as JSON, without caching', async () => {
    await server.db.transaction((tx) =>
      queueBookingConfirmation(tx, confirmation, {
        publicUrl: 'http://localhost:3000',
        providerName: 'Demo',
        clock: createTestClock('2026-03-10T01:00:00Z'),
      }),
    );
    const [stored] = await createOutboxRepository(server.db).listRecent(1);
    mailId = stored?.id ?? 0;
    const response = await server.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ mails: Array<Record<string, unknown>> }>();
    expect(body.mails).toHaveLength(1);
    expect(body.mails[0]).toMatchObject({
      id: mailId,
      kind: 'booking_confirmation',
      recipient: 'dev.outbox@example.com',
      status: 'queued',
      attempts: 0,
      createdAt: '2026-03-10T01:00:00.000Z',
      attachments: [
        { filename: 'appointment.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH' },
        { filename: 'booking-code.png', contentType: 'image/png', size: expect.any(Number) },
      ],
    });
    expect(body.mails[0]?.text).toContain('http://localhost:3000/appointments/Dev0utb0xKey_1234567890');
    const docs = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(docs.json<{ paths: Record<string, unknown> }>().paths).filter((path) => path.includes('/dev/'))).toEqual([
      '/api/dev/outbox',
      '/api/dev/outbox/{id}',
    ]);
    const single = await server.app.inject({ method: 'GET', url: `/api/dev/outbox/${mailId}` });
    expect(single.json<{ attachments: Array<{ content: string }> }>().attachments[0]?.content).toMatch(/^BEGIN:VCALENDAR\r\n/);
  });

  it('should render an accessible, escaped HTML list with a link to each mail', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    const document = new JSDOM(response.body).window.document;
    expect(document.documentElement.lang).toBe('en');
    expect(document.title).toBe('Development outbox');
    expect(document.querySelector('h1')?.textContent).toBe('Development outbox');
    expect(document.querySelectorAll('script, b')).toHaveLength(0);
    expect(document.querySelector('table caption')?.textContent).toContain('most recent');
    // On a phone the table scrolls in its own keyboard-reachable region, never the page sideways.
    const region = document.querySelector('div.scroll[role="region"][tabindex="0"]');
    expect(region?.getAttribute('aria-labelledby')).toBe('mails');
    expect(region?.querySelector('table caption')?.textContent).toContain('most recent');
    expect([...document.querySelectorAll('th')].every((th) => th.getAttribute('scope') === 'col')).toBe(true);
    const link = document.querySelector(`a[href="/dev/outbox/${mailId}"]`);
    expect(link?.textContent).toBe('Demo: Your appointment is confirmed – Saturday 21 March 2026 at 10:00 am AEDT, North <b>Imaging</b>');
    // The page's only style block carries the CSP nonce, so the policy allows it.
    const nonce = document.querySelector('style')?.getAttribute('nonce');
    expect(response.headers['content-security-policy']).toContain(`'nonce-${nonce ?? 'missing'}'`);
  });

  it('should show one mail with its text, a sandboxed HTML view and its attachments', async () => {
    const response = await server.app.inject({ method: 'GET', url: `/dev/outbox/${mailId}` });
    expect(response.statusCode).toBe(200);
    const document = new JSDOM(response.body).window.document;
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(document.querySelector('pre')?.textContent).toContain(`Dear ${HOSTILE} Citizen,`);
    const frame = document.querySelector('iframe');
    expect(frame?.getAttribute('src')).toBe(`/dev/outbox/${mailId}/html`);
    expect(frame?.getAttribute('title')).toBe('HTML version of the mail');
    expect(frame?.hasAttribute('sandbox')).toBe(true);
    expect(document.querySelector(`a[href="/dev/outbox/${mailId}/attachments/0"]`)?.textContent).toBe('appointment.ics');

    const html = await server.app.inject({ method: 'GET', url: `/dev/outbox/${mailId}/html` });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(html.body).toContain('&lt;script&gt;alert(&quot;outbox&quot;)&lt;/script&gt;');
    expect(html.body).not.toContain(HOSTILE);

    const ics = await server.app.inject({ method: 'GET', url: `/dev/outbox/${mailId}/attachments/0` });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8; method=PUBLISH');
    expect(ics.headers['content-disposition']).toBe('attachment; filename="appointment.ics"');
    expect(ics.body).toContain('DTSTART:20260320T230000Z');
    // The booking code's QR image is served as the PNG it is, not as its stored base64.
    const png = await server.app.inject({ method: 'GET', url: `/dev/outbox/${mailId}/attachments/1` });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });

  it.each([
    ['/api/dev/outbox/999999', 404, 'not_found'],
    ['/dev/outbox/999999', 404, 'not_found'],
    ['/dev/outbox/MAIL/attachments/5', 404, 'not_found'],
    ['/api/dev/outbox/abc', 400, 'validation_failed'],
    ['/api/dev/outbox/0', 400, 'validation_failed'],
    ['/api/dev/outbox?limit=0', 400, 'validation_failed'],
    ['/api/dev/outbox?limit=201', 400, 'validation_failed'],
    ['/api/dev/outbox?unknown=1', 400, 'validation_failed'],
  ])('should answer %s with %i and a clear message', async (path, status, code) => {
    const response = await server.app.inject({ method: 'GET', url: path.replace('MAIL', String(mailId)) });
    expect(response.statusCode).toBe(status);
    const body = ApiErrorBodySchema.parse(response.json());
    expect(body.code).toBe(code);
    expect(body.message.length).toBeGreaterThan(5);
  });
});

describe('development outbox switched off', () => {
  const database = useTestDatabase();

  it.each([
    ['MAIL_DEV_OUTBOX_ENABLED=false', { MAIL_DEV_OUTBOX_ENABLED: 'false' }],
    [
      'NODE_ENV=production by default',
      {
        NODE_ENV: 'production',
        SESSION_SECRET: 'a-random-session-secret-of-32-chars!',
        PUBLIC_URL: 'https://portal.example.com',
        SMTP_HOST: 'smtp.example.com',
        SMTP_FROM: 'portal@example.com',
      },
    ],
  ])('should answer 404 on every outbox path with %s (not the web app)', async (_label, env) => {
    const server = await buildTestServer({ db: database.db, config: testConfig(env) });
    try {
      for (const path of PATHS) {
        const response = await server.app.inject({ method: 'GET', url: path });
        expect(response.statusCode, path).toBe(404);
        expect(ApiErrorBodySchema.parse(response.json()).code, path).toBe('not_found');
      }
      const docs = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(Object.keys(docs.json<{ paths: Record<string, unknown> }>().paths).filter((path) => path.includes('/dev/'))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
