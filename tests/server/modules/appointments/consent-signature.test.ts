import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConsentFormsResponseSchema } from '@contract/api/appointments';
import { StaffConsentsSchema, staffConsentsPath, staffSignaturePath } from '@contract/api/staff-consents';
import { ApiErrorBodySchema } from '@contract/errors';
import { backends, SEED_NOW } from '../../helpers/database';
import { cookieBrowser } from '../../helpers/cookie-browser';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { ADMIN_CLAIMS, KIOSK_ADMIN_CLAIMS, REFERRER_CLAIMS, STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';
import { addEnrolledKiosk } from '../kiosks/kiosk-kit';
import { signIn, type Signed } from './self-service-kit';

// The drawn consent signature (docs/rules/appointments.md#consent-forms): checked by content on
// the sign call, stored re-encoded, never in the patient's answers, read by staff and admin only.

const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14' };

/** An RGBA picture of `width` × `height`, transparent, with `ink` dark pixels along a line. */
async function png(width: number, height: number, options: { ink?: number; background?: [number, number, number, number] } = {}) {
  const [r, g, b, a] = options.background ?? [0, 0, 0, 0];
  const raw = Buffer.alloc(width * height * 4);
  for (let at = 0; at < raw.length; at += 4) raw.set([r, g, b, a], at);
  const ink = options.ink ?? Math.min(width, 200);
  for (let x = 0; x < ink; x += 1) raw.set([20, 20, 60, 255], (Math.floor(height / 2) * width + (x % width)) * 4);
  return sharp(raw, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

const base64 = (bytes: Buffer): string => bytes.toString('base64');

/** The message and each detail's: a schema refusal names the field's problem in its details. */
function messagesOf(body: { message: string; details?: unknown }): string {
  const details = Array.isArray(body.details) ? (body.details as Array<{ in?: string; message?: string }>) : [];
  return [body.message, ...details.map((detail) => `${detail.in ?? ''}: ${detail.message ?? ''}`)].join(' | ');
}

describe.each(backends())('drawn consent signatures on %s', (backend) => {
  const { server, signedIn: staffWith } = useStaffTestApp({ backend });
  let liam: Signed;
  let formIds: string[];
  let good: Buffer;

  const sign = (formId: string, body: object) =>
    liam.put(`/api/appointments/${LIAM.bookingKey}/consent-forms/${formId}`, { signedName: 'Liam Example', agreed: true, ...body });

  const stored = async (): Promise<Array<{ form: string; png: string | null }>> =>
    server.db.query(
      `select consent_form_id::text as form, encode(signature_png, 'hex') as png from consent_signature where booking_key = $1 order by signed_at`,
      [LIAM.bookingKey],
    );

  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    await setOtpRequired(server.db, false);
    good = await png(900, 300);
  });
  beforeEach(async () => {
    server.clock.set(SEED_NOW);
    await server.db.query('delete from consent_signature where booking_key = $1', [LIAM.bookingKey]);
    liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
    const forms = ConsentFormsResponseSchema.parse((await liam.get(`/api/appointments/${LIAM.bookingKey}/consent-forms`)).json());
    formIds = forms.appointmentConsentForms.map((form) => form.id);
    expect(formIds.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses each bad drawing with its own 400 message and stores nothing', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['not base64', 'not a png!', /must be a PNG image, as base64/],
      [
        'a JPEG',
        base64(
          await sharp(await png(300, 100))
            .flatten()
            .jpeg()
            .toBuffer(),
        ),
        /must be a PNG image\./,
      ],
      ['blank (transparent)', base64(await png(900, 300, { ink: 0 })), /is empty/],
      ['blank (white)', base64(await png(900, 300, { ink: 0, background: [255, 255, 255, 255] })), /is empty/],
      ['too wide', base64(await png(2001, 100)), /too big: at most 2000 × 1000/],
      ['too tall', base64(await png(300, 1001)), /too big: at most 2000 × 1000/],
      ['too small', base64(await png(20, 10)), /too small/],
      ['truncated', base64(good.subarray(0, 60)), /not a readable PNG/],
      ['a PNG header only', base64(good.subarray(0, 8)), /not a readable PNG/],
    ];
    for (const [name, signaturePng, message] of cases) {
      const response = await sign(formIds[0] ?? '', { signaturePng });
      expect(response.statusCode, name).toBe(400);
      const body = ApiErrorBodySchema.parse(response.json());
      expect(body.code, name).toBe('validation_failed');
      expect(messagesOf(body), name).toMatch(message);
      expect(messagesOf(body), name).toMatch(/signaturePng/);
    }
    // Over 200 KB: noise does not compress.
    const noise = Buffer.alloc(260 * 260 * 4);
    for (let at = 0; at < noise.length; at += 1) noise[at] = (at * 7919 + (at >> 3) * 104729) % 251;
    const big = await sharp(noise, { raw: { width: 260, height: 260, channels: 4 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(200 * 1024);
    const tooLarge = await sign(formIds[0] ?? '', { signaturePng: base64(big) });
    expect(tooLarge.statusCode).toBe(400);
    expect(messagesOf(ApiErrorBodySchema.parse(tooLarge.json()))).toMatch(/too large \(at most 200 KB\)/);
    expect(await stored()).toEqual([]);
  });

  it('stores a re-encoded copy (hidden bytes dropped), with the same pixels; a data: URL works too', async () => {
    const hidden = Buffer.concat([good, Buffer.from('SECRET-PAYLOAD-AFTER-IEND')]);
    const response = await sign(formIds[0] ?? '', { signaturePng: `data:image/png;base64,${base64(hidden)}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ signed: true, signedName: 'Liam Example' });
    const [row] = await stored();
    const bytes = Buffer.from(row?.png ?? '', 'hex');
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(bytes.toString('latin1')).not.toContain('SECRET');
    const [before, after] = await Promise.all([sharp(good).raw().toBuffer(), sharp(bytes).raw().toBuffer()]);
    expect(after.equals(before)).toBe(true);
  });

  it("never returns the drawing in the patient's answers; a second signature changes nothing", async () => {
    expect((await sign(formIds[0] ?? '', { signaturePng: base64(good) })).statusCode).toBe(200);
    const first = await stored();
    const again = await sign(formIds[0] ?? '', { signedName: 'Someone Else' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ signed: true, signedName: 'Liam Example' });
    expect(await stored()).toEqual(first);
    const list = await liam.get(`/api/appointments/${LIAM.bookingKey}/consent-forms`);
    expect(list.body).not.toContain(base64(good).slice(0, 40));
    expect(list.body).not.toMatch(/signature|png/i);
    // The typed-name path of the website still signs without a drawing.
    expect((await sign(formIds[1] ?? '', {})).statusCode).toBe(200);
    expect((await stored()).map((row) => row.png === null)).toEqual([false, true]);
  });

  it('answers staff and admin the forms and the exact stored PNG, audited; everyone else is refused', async () => {
    expect((await sign(formIds[0] ?? '', { signaturePng: base64(good) })).statusCode).toBe(200);
    expect((await sign(formIds[1] ?? '', {})).statusCode).toBe(200);
    const [row] = await stored();
    const storedBytes = Buffer.from(row?.png ?? '', 'hex');

    for (const claims of [STAFF_CLAIMS, ADMIN_CLAIMS]) {
      const staff = await staffWith(claims);
      const list = await staff.request('GET', staffConsentsPath(LIAM.bookingKey));
      expect(list.statusCode, list.body).toBe(200);
      expect(list.headers['cache-control']).toBe('no-store');
      const consents = StaffConsentsSchema.parse(list.json()).consents;
      expect(consents.find((form) => form.id === formIds[0])).toMatchObject({ signed: true, signedName: 'Liam Example', drawn: true });
      expect(consents.find((form) => form.id === formIds[1])).toMatchObject({ signed: true, drawn: false });

      const image = await staff.request('GET', staffSignaturePath(LIAM.bookingKey, formIds[0] ?? ''));
      expect(image.statusCode).toBe(200);
      expect(image.headers).toMatchObject({
        'content-type': 'image/png',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      expect(String(image.headers['content-disposition'])).toMatch(/^inline/);
      expect(image.rawPayload.equals(storedBytes)).toBe(true);
      // No drawing for the typed-name form, and none for another booking's key.
      expect((await staff.request('GET', staffSignaturePath(LIAM.bookingKey, formIds[1] ?? ''))).statusCode).toBe(404);
      expect((await staff.request('GET', staffSignaturePath('Nj3PQywTfwZs5UvmttODPA', formIds[0] ?? ''))).statusCode).toBe(404);
      expect((await staff.request('GET', staffConsentsPath('AAAAAAAAAAAAAAAAAAAAAA'))).statusCode).toBe(404);
    }
    const audits = await server.db.query<{ action: string; actor: string; subject_id: string }>(
      `select action, actor, subject_id from audit_log where action like 'consent%read_by_staff' order by id`,
    );
    expect(audits.map((entry) => entry.action)).toEqual([
      'consent_forms.read_by_staff',
      'consent_signature.read_by_staff',
      'consent_forms.read_by_staff',
      'consent_signature.read_by_staff',
    ]);
    expect(audits.every((entry) => entry.actor.startsWith('staff:') && !entry.subject_id.includes(LIAM.bookingKey))).toBe(true);

    const urls = [staffConsentsPath(LIAM.bookingKey), staffSignaturePath(LIAM.bookingKey, formIds[0] ?? '')];
    const referrer = await staffWith(REFERRER_CLAIMS);
    const kioskAdmin = await staffWith(KIOSK_ADMIN_CLAIMS);
    const anonymous = cookieBrowser(server.app, 'none', '198.51.100.77');
    // A real enrolled kiosk: its token opens kiosk calls, never staff reads.
    const kiosk = (
      await addEnrolledKiosk(server.app, kioskAdmin, { name: 'Consent test lobby', clinicSlug: 'parramatta' }, '198.51.100.78')
    ).browser;
    for (const url of urls) {
      expect((await liam.get(url)).statusCode, `patient ${url}`).toBe(401);
      expect((await anonymous.request('GET', url)).statusCode, `anonymous ${url}`).toBe(401);
      expect((await kiosk.request('GET', url)).statusCode, `kiosk ${url}`).toBe(401);
      for (const [who, browser] of [
        ['referrer', referrer],
        ['kioskAdmin', kioskAdmin],
      ] as const) {
        const refused = await browser.request('GET', url);
        expect(refused.statusCode, `${who} ${url}`).toBe(403);
        expect(refused.headers['content-type']).not.toMatch(/image/);
      }
    }
  });
});
