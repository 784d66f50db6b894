import { describe, expect, it } from 'vitest';
import {
  CALLBACK_REQUESTS_PATH,
  CALLBACK_REASON_MAX,
  STAFF_CALLBACK_REQUESTS_PATH,
  StaffCallbackListSchema,
  staffCallbackCalledPath,
} from '@contract/api/callbacks';
import { CAPTCHA_HEADER } from '@contract/api/captcha';
import { DEFAULT_CALLBACK_LIMITS } from '../../../../src-server/modules/callbacks/callback-limits';
import { captchaHeaders } from '../../helpers/captcha';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { newClientAddress } from '../booking/booking-test-kit';
import { ADMIN_CLAIMS, KIOSK_ADMIN_CLAIMS, REFERRER_CLAIMS, STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';

// Callback requests (docs/rules/callbacks.md): anyone may ask, with a solved proof-of-work
// answer, limited per connection and per phone number; the row and the call-centre mail are
// written together; staff and admins work the queue, audited without the patient's details.

const CALL_CENTRE = 'callcentre@harbourrange.example';
/** Sentinels that must never reach the audit log. */
const NAME = { firstName: 'Zaharina', lastName: 'Callbackova' };
const REQUEST = {
  ...NAME,
  phone: '(04) 9157-0123',
  windows: ['weekdayMorning', 'saturdayMorning'],
  reason: 'I could not find a time after 5 pm for my knee MRI.\nCould you call me?',
};
/** Each request from its own number unless a test says otherwise, so the per-phone limit stays out of the way. */
let phoneCount = 0;
const newPhone = (): string => `+6140000${String(1000 + (phoneCount += 1))}`;

describe.each(backends())('callback requests on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, staffAddress: newClientAddress });

  /** A callback request with a freshly solved captcha answer, none (`captcha: false`), or the given `headers` (to replay one). */
  async function ask(body: object, options: { address?: string; captcha?: boolean; headers?: Record<string, string> } = {}) {
    return server.app.inject({
      method: 'POST',
      url: CALLBACK_REQUESTS_PATH,
      remoteAddress: options.address ?? newClientAddress(),
      headers: options.headers ?? (options.captcha === false ? {} : await captchaHeaders(server.app)),
      payload: body,
    });
  }

  async function stored(): Promise<{ requests: number; mails: number }> {
    const [requests] = await server.db.query<{ count: number }>(`select count(*)::int as count from callback_request`);
    const [mails] = await server.db.query<{ count: number }>(
      `select count(*)::int as count from outbox_mail where kind = 'callback_requested'`,
    );
    return { requests: Number(requests?.count), mails: Number(mails?.count) };
  }

  it('should store a request and queue one mail to the call centre with what an agent needs to call', async () => {
    const before = await stored();
    const response = await ask({ ...REQUEST, examSlug: 'mri-knee' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({ phone: '0491570123', windows: ['weekdayMorning', 'saturdayMorning'] });
    expect(await stored()).toEqual({ requests: before.requests + 1, mails: before.mails + 1 });

    const [row] = await server.db.query<{ phone: string; windows: string[]; exam_name: string | null; called_at: Date | null }>(
      `select phone, windows, exam_name, called_at from callback_request where id = $1`,
      [response.json().id],
    );
    expect(row).toMatchObject({ phone: '0491570123', windows: ['weekdayMorning', 'saturdayMorning'], called_at: null });
    expect(row?.exam_name).toMatch(/MRI/i);

    const [mail] = await server.db.query<{ recipient: string; subject: string; text_body: string; html_body: string }>(
      `select recipient, subject, text_body, html_body from outbox_mail where kind = 'callback_requested' order by id desc limit 1`,
    );
    expect(mail?.recipient).toBe(CALL_CENTRE);
    expect(mail?.subject).toBe('Harbour & Range Radiology: Callback requested by Zaharina Callbackova');
    for (const said of [
      'Zaharina Callbackova',
      '0491570123',
      'Weekday morning (7:30 am to 12 pm)',
      'Saturday morning (8 am to 12 pm)',
      'I could not find a time after 5 pm for my knee MRI.',
      'Could you call me?',
      '/staff/callbacks',
    ]) {
      expect(mail?.text_body, said).toContain(said);
    }
    expect(mail?.html_body).toContain('href="tel:0491570123"');
  });

  it('should keep a leading plus and accept the number however it is typed', async () => {
    const response = await ask({ ...REQUEST, phone: ' +61 (491) 570-124 ' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().phone).toBe('+61491570124');
  });

  it.each([
    ['a phone number with letters', { phone: '0491 CALL ME' }],
    ['a phone number of 8 digits', { phone: '04915701' }],
    ['a phone number of 16 digits', { phone: '+6149157012345678' }],
    ['a plus inside the number', { phone: '0491+570123' }],
    ['no window', { windows: [] }],
    ['an unknown window', { windows: ['midnight'] }],
    ['the same window twice', { windows: ['anyTime', 'anyTime'] }],
    ['an empty reason', { reason: '   ' }],
    ['a reason over the limit', { reason: 'x'.repeat(CALLBACK_REASON_MAX + 1) }],
    ['no last name', { lastName: '' }],
    ['a name with digits', { firstName: 'R2D2' }],
    ['an unknown field', { email: 'someone@example.com' }],
    ['an exam slug of the wrong shape', { examSlug: 'MRI Knee' }],
    ['an exam the catalogue does not have', { examSlug: 'mri-elbow-of-a-dragon' }],
  ])('should refuse %s with a 400 and a message, storing and mailing nothing', async (_case, change) => {
    const before = await stored();
    const response = await ask({ ...REQUEST, phone: newPhone(), ...change });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.any(String) });
    expect(await stored()).toEqual(before);
  });

  it('should ask for the proof-of-work answer on every request (403 captcha_required), storing and mailing nothing', async () => {
    const before = await stored();
    const missing = await ask({ ...REQUEST, phone: newPhone() }, { captcha: false });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ code: 'captcha_required', details: { header: CAPTCHA_HEADER } });
    // An answer is used once: replaying it is refused too.
    const headers = await captchaHeaders(server.app);
    const address = newClientAddress();
    const first = await ask({ ...REQUEST, phone: newPhone() }, { address, headers });
    expect(first.statusCode).toBe(201);
    const replayed = await ask({ ...REQUEST, phone: newPhone() }, { address, headers });
    expect(replayed.statusCode).toBe(403);
    expect(await stored()).toEqual({ requests: before.requests + 1, mails: before.mails + 1 });
  });

  it('should limit one connection per hour (429 with Retry-After), store nothing past it, and let it in again next hour', async () => {
    const address = newClientAddress();
    for (let index = 0; index < DEFAULT_CALLBACK_LIMITS.perClient.hour; index += 1) {
      const response = await ask({ ...REQUEST, phone: newPhone() }, { address });
      expect(response.statusCode, response.body).toBe(201);
    }
    const before = await stored();
    const refused = await ask({ ...REQUEST, phone: newPhone() }, { address });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('too_many_requests');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(await stored()).toEqual(before);
    // Another connection is not held up by it.
    expect((await ask({ ...REQUEST, phone: newPhone() })).statusCode).toBe(201);
    server.clock.advance(wait * 1000);
    expect((await ask({ ...REQUEST, phone: newPhone() }, { address })).statusCode).toBe(201);
  });

  it('should limit one phone number from any connection (429 with Retry-After) and audit the refusal without the number', async () => {
    const phone = newPhone();
    for (let index = 0; index < DEFAULT_CALLBACK_LIMITS.perPhone.hour; index += 1) {
      // Typed differently each time: still one number.
      const typed = index === 0 ? phone : phone.replace(/^\+61/, '+61 ');
      expect((await ask({ ...REQUEST, phone: typed })).statusCode).toBe(201);
    }
    const before = await stored();
    const refused = await ask({ ...REQUEST, phone });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stored()).toEqual(before);
    const [audit] = await server.db.query<{ details: Record<string, unknown> }>(
      `select details from audit_log where action = 'callback_request_refused' order by id desc limit 1`,
    );
    expect(audit?.details).toMatchObject({ reason: 'too_many', windows: ['phone_hour'] });
    expect(JSON.stringify(audit)).not.toContain(phone.slice(3));
  });

  it('should list the queue open first for staff, mark one called with a note, and move it after the open ones', async () => {
    const older = await ask({ ...REQUEST, phone: newPhone(), reason: 'Older request' });
    const newer = await ask({ ...REQUEST, phone: newPhone(), reason: 'Newer request' });
    const staff = await signedIn(STAFF_CLAIMS);
    const listed = await staff.request('GET', STAFF_CALLBACK_REQUESTS_PATH);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const list = StaffCallbackListSchema.parse(listed.json());
    const ids = list.items.map((item) => item.id);
    expect(ids.indexOf(older.json().id)).toBeLessThan(ids.indexOf(newer.json().id));
    expect(list.items.every((item) => item.status === 'open')).toBe(true);
    expect(list.openTotal).toBe(list.items.length);

    const marked = await staff.request('POST', staffCallbackCalledPath(older.json().id), { note: 'Booked Thursday 5:30 pm' });
    expect(marked.statusCode, marked.body).toBe(204);
    const after = StaffCallbackListSchema.parse((await staff.request('GET', STAFF_CALLBACK_REQUESTS_PATH)).json());
    const last = after.items.at(-1);
    expect(last).toMatchObject({ id: older.json().id, status: 'called', note: 'Booked Thursday 5:30 pm' });
    expect(last?.calledBy).toEqual(expect.any(String));
    expect(after.openTotal).toBe(list.openTotal - 1);

    // Twice is a conflict; an unknown id is a 404; a note too long is a 400.
    expect((await staff.request('POST', staffCallbackCalledPath(older.json().id), {})).statusCode).toBe(409);
    expect((await staff.request('POST', staffCallbackCalledPath('6f1c2d3e-0000-4000-8000-000000000000'), {})).statusCode).toBe(404);
    expect((await staff.request('POST', staffCallbackCalledPath(newer.json().id), { note: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await staff.request('POST', staffCallbackCalledPath(newer.json().id), { note: 'ok', extra: 1 })).statusCode).toBe(400);

    // An admin may work the queue too.
    const admin = await signedIn(ADMIN_CLAIMS);
    expect((await admin.request('POST', staffCallbackCalledPath(newer.json().id), {})).statusCode).toBe(204);
  });

  it('should audit who requested, listed and called, never the patient’s name, number, words or the note', async () => {
    const phone = newPhone();
    const asked = await ask({ ...REQUEST, phone });
    const staff = await signedIn(STAFF_CLAIMS);
    await staff.request('GET', STAFF_CALLBACK_REQUESTS_PATH);
    await staff.request('POST', staffCallbackCalledPath(asked.json().id), { note: 'Sentinel note Zaharina' });
    const rows = await server.db.query<{ actor: string; action: string; details: Record<string, unknown> }>(
      `select actor, action, details from audit_log where action in ('callback_requested', 'staff_callbacks_listed', 'callback_request_called') order by id`,
    );
    expect(new Set(rows.map((row) => row.action))).toEqual(
      new Set(['callback_requested', 'staff_callbacks_listed', 'callback_request_called']),
    );
    expect(rows.filter((row) => row.action !== 'callback_requested').every((row) => /^staff:[0-9a-f]{16}$/.test(row.actor))).toBe(true);
    const text = JSON.stringify(rows);
    for (const secret of ['Zaharina', 'Callbackova', phone.slice(3), 'knee', 'Sentinel']) expect(text).not.toContain(secret);
  });

  it.each([
    ['a referring doctor', REFERRER_CLAIMS],
    ['a kiosk administrator', KIOSK_ADMIN_CLAIMS],
  ])('should refuse %s the queue and the mark (403) and show no patient', async (_who, claims) => {
    const asked = await ask({ ...REQUEST, phone: newPhone() });
    const browser = await signedIn(claims);
    const listed = await browser.request('GET', STAFF_CALLBACK_REQUESTS_PATH);
    expect(listed.statusCode).toBe(403);
    expect(listed.body).not.toContain('Zaharina');
    expect((await browser.request('POST', staffCallbackCalledPath(asked.json().id), {})).statusCode).toBe(403);
  });

  it('should refuse anyone not signed in as staff (401)', async () => {
    const listed = await server.app.inject({ method: 'GET', url: STAFF_CALLBACK_REQUESTS_PATH, remoteAddress: newClientAddress() });
    expect(listed.statusCode).toBe(401);
    expect(listed.body).not.toContain('Zaharina');
    const marked = await server.app.inject({
      method: 'POST',
      url: staffCallbackCalledPath('6f1c2d3e-0000-4000-8000-000000000000'),
      remoteAddress: newClientAddress(),
      payload: {},
    });
    expect(marked.statusCode).toBe(401);
  });
});

describe('callback requests without a call-centre address', () => {
  const server = useTestApp({ log: 'warn' });

  it('should store the request, queue no mail, and say so in the log once', async () => {
    await server.db.query(`update booking_settings set call_centre_email = null`);
    for (const phone of [newPhone(), newPhone()]) {
      const response = await server.app.inject({
        method: 'POST',
        url: CALLBACK_REQUESTS_PATH,
        remoteAddress: newClientAddress(),
        headers: await captchaHeaders(server.app),
        payload: { ...REQUEST, phone },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const [requests] = await server.db.query<{ count: number }>(`select count(*)::int as count from callback_request`);
    const [mails] = await server.db.query<{ count: number }>(
      `select count(*)::int as count from outbox_mail where kind = 'callback_requested'`,
    );
    expect(Number(requests?.count)).toBe(2);
    expect(Number(mails?.count)).toBe(0);
    expect(server.log.lines.filter((line) => line.includes('no call-centre address'))).toHaveLength(1);
  });
});
