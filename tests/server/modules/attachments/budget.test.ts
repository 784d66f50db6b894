import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAPTCHA_HEADER } from '@contract/api/captcha';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import { BUDGET_ALERT_ACTION } from '../../../../src-server/modules/attachments/upload-budget';
import { captchaHeaders } from '../../helpers/captcha';
import { backends, SEED_NOW } from '../../helpers/database';
import { CLIENT_HEADERS, signIn } from '../appointments/self-service-kit';
import { newClientAddress } from '../booking/booking-test-kit';
import { STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { appointmentBase, LIAM, MINIMAL_PDF, multipart, storedFiles, strayFiles, temporaryBase } from './attachments-kit';

// The budget of uploads under temporary booking keys (docs/rules/attachments.md#limits): bytes per
// client address in a rolling window (429 with Retry-After), a proof-of-work answer after a few
// uploads (403 captcha_required), all temporary documents together (507), a warning as the total
// grows; and a full booking's document space said as such (413 document_space_full).

const KIB = 1024;
const MIB = 1024 * 1024;
const HOUR = 60 * 60 * 1000;
const sessionCookie = (token: string | null): string => `${PATIENT_SESSION_COOKIE}=${token ?? ''}`;

/** A passive PDF of about `size` bytes (a comment pads it; it is stored as sent). */
function pdfOf(size: number): Buffer {
  const body = MINIMAL_PDF.toString('latin1').replace('%PDF-1.4\n', '');
  return Buffer.from(`%PDF-1.4\n%${'A'.repeat(Math.max(0, size - MINIMAL_PDF.length - 2))}\n${body}`, 'latin1');
}

describe.each(backends())('temporary upload budget on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, log: 'warn' });
  beforeAll(() => setOtpRequired(server.db, false));
  beforeEach(async () => {
    server.clock.set(SEED_NOW);
    await clearTemporary();
  });
  afterEach(async () => {
    await server.db.query(
      `update attachment_settings set temporary_bytes_per_client = default, temporary_uploads_before_captcha = default,
              temporary_budget_window_hours = default, temporary_bytes_total = default, max_bytes_per_booking = default`,
    );
  });

  /** No temporary documents, and no file without a row (expired keys' rows go as new keys are issued; the sweeper takes their files). */
  async function clearTemporary(): Promise<void> {
    await server.db.query(`delete from attachment where owner_type = 'TEMPORARY'`);
    const named = new Set(
      (await server.db.query<{ storage_key: string }>(`select storage_key from attachment`)).map((row) => row.storage_key),
    );
    for (const name of await storedFiles(server.dataDir))
      if (!named.has(name)) await rm(join(server.dataDir, 'files', name), { force: true });
    await server.db.query(`delete from temporary_upload_reservation`);
    await server.db.query(`delete from temporary_upload_alert`);
  }

  async function settings(values: Record<string, number>): Promise<void> {
    const columns = Object.keys(values);
    await server.db.query(
      `update attachment_settings set ${columns.map((column, index) => `${column} = $${index + 1}`).join(', ')}`,
      Object.values(values),
    );
  }

  async function newKey(ip: string): Promise<string> {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/questionnaires/booking-keys',
      headers: CLIENT_HEADERS,
      remoteAddress: ip,
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ bookingKey: string }>().bookingKey;
  }

  function upload(
    url: string,
    file: Buffer,
    options: { ip: string; headers?: Record<string, string>; cookie?: string },
  ): Promise<LightMyRequestResponse> {
    const body = multipart({}, { name: 'scan.pdf', type: 'application/pdf', bytes: file });
    return server.app.inject({
      method: 'POST',
      url,
      remoteAddress: options.ip,
      headers: { ...CLIENT_HEADERS, ...body.headers, ...(options.headers ?? {}), ...(options.cookie ? { cookie: options.cookie } : {}) },
      payload: body.payload,
    });
  }

  async function counts(): Promise<{ rows: number; reservations: number }> {
    const [rows] = await server.db.query<{ n: number }>(`select count(*)::int as n from attachment where owner_type = 'TEMPORARY'`);
    const [reservations] = await server.db.query<{ n: number }>(`select count(*)::int as n from temporary_upload_reservation`);
    return { rows: rows?.n ?? 0, reservations: reservations?.n ?? 0 };
  }

  it('refuses an address past its bytes in the window with 429 and Retry-After, leaves nothing behind, and lets another address upload', async () => {
    await settings({ temporary_bytes_per_client: MIB, temporary_uploads_before_captcha: 100 });
    const ip = newClientAddress();
    const key = await newKey(ip);
    expect((await upload(temporaryBase(key), pdfOf(300 * KIB), { ip })).statusCode).toBe(201);
    server.clock.advance(HOUR);
    for (let index = 0; index < 2; index += 1) {
      const stored = await upload(temporaryBase(key), pdfOf(300 * KIB), { ip });
      expect(stored.statusCode, stored.body).toBe(201);
    }
    const before = await counts();
    const refused = await upload(temporaryBase(key), pdfOf(300 * KIB), { ip });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'too_many_requests' });
    // The first upload (an hour before) leaves the 24-hour window in 23 hours, freeing enough.
    expect(refused.headers['retry-after']).toBe(String(23 * 60 * 60));
    expect(await counts()).toEqual(before);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);

    // Another address still uploads, under its own key and under the same one.
    const other = newClientAddress();
    expect((await upload(temporaryBase(await newKey(other)), pdfOf(300 * KIB), { ip: other })).statusCode).toBe(201);
    expect((await upload(temporaryBase(key), pdfOf(300 * KIB), { ip: other })).statusCode).toBe(201);

    // The window rolls: once the first upload is 24 hours old, its bytes are free again.
    server.clock.advance(23 * HOUR);
    expect((await upload(temporaryBase(await newKey(ip)), pdfOf(300 * KIB), { ip })).statusCode).toBe(201);
  });

  it('holds a streamed upload without Content-Length to what is left, and refuses it past that with nothing left behind', async () => {
    await settings({ temporary_bytes_per_client: MIB, temporary_uploads_before_captcha: 100 });
    const ip = newClientAddress();
    const key = await newKey(ip);
    expect((await upload(temporaryBase(key), pdfOf(600 * KIB), { ip })).statusCode).toBe(201);
    const body = multipart({}, { name: 'scan.pdf', type: 'application/pdf', bytes: pdfOf(600 * KIB) });
    const before = await counts();
    const refused = await server.app.inject({
      method: 'POST',
      url: temporaryBase(key),
      remoteAddress: ip,
      headers: { ...CLIENT_HEADERS, ...body.headers, 'transfer-encoding': 'chunked' },
      payload: Readable.from([body.payload.subarray(0, 64 * KIB), body.payload.subarray(64 * KIB)]),
    });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });

  it('never lets 10 concurrent uploads from one address past its budget: bytes are reserved before they are read', async () => {
    await settings({ temporary_bytes_per_client: MIB, temporary_uploads_before_captcha: 100 });
    const ip = newClientAddress();
    const keys = await Promise.all(Array.from({ length: 10 }, () => newKey(ip)));
    const answers = await Promise.all(keys.map((key) => upload(temporaryBase(key), pdfOf(300 * KIB), { ip })));
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
    const [stored] = await server.db.query<{ bytes: string }>(
      `select coalesce(sum(size_bytes), 0)::text as bytes from attachment where owner_type = 'TEMPORARY'`,
    );
    expect(Number(stored?.bytes)).toBeLessThanOrEqual(MIB);
    expect(await counts()).toEqual({ rows: 3, reservations: 3 });
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });

  it('does not count a signed-in patient uploading to their own appointment, nor staff', async () => {
    await settings({ temporary_bytes_per_client: MIB, temporary_uploads_before_captcha: 100 });
    const ip = newClientAddress();
    const key = await newKey(ip);
    for (let index = 0; index < 3; index += 1) expect((await upload(temporaryBase(key), pdfOf(300 * KIB), { ip })).statusCode).toBe(201);
    expect((await upload(temporaryBase(key), pdfOf(300 * KIB), { ip })).statusCode).toBe(429);
    const signed = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
    const own = await upload(appointmentBase(LIAM.bookingKey), pdfOf(300 * KIB), { ip, cookie: sessionCookie(signed.browser.token) });
    expect(own.statusCode, own.body).toBe(201);
    await server.db.query(`delete from attachment where id = $1::uuid`, [own.json<{ id: string }>().id]);

    // Staff uploading under the patient's temporary key, from the same address, are not counted either.
    const browser = await signedIn(STAFF_CLAIMS);
    const byStaff = await upload(temporaryBase(key), pdfOf(300 * KIB), { ip, cookie: `${STAFF_SESSION_COOKIE}=${browser.token ?? ''}` });
    expect(byStaff.statusCode, byStaff.body).toBe(201);
    expect(await counts()).toEqual({ rows: 4, reservations: 3 });
  });

  it('asks for a solved proof-of-work answer after a few uploads from one address, and takes the upload with one', async () => {
    await settings({ temporary_uploads_before_captcha: 2 });
    const ip = newClientAddress();
    const key = await newKey(ip);
    for (let index = 0; index < 2; index += 1) expect((await upload(temporaryBase(key), MINIMAL_PDF, { ip })).statusCode).toBe(201);
    const before = await counts();
    const asked = await upload(temporaryBase(key), MINIMAL_PDF, { ip });
    expect(asked.statusCode, asked.body).toBe(403);
    expect(asked.json()).toMatchObject({ code: 'captcha_required', details: { header: CAPTCHA_HEADER } });
    const forged = await upload(temporaryBase(key), MINIMAL_PDF, { ip, headers: { [CAPTCHA_HEADER]: 'bm90LWFuLWFuc3dlcg' } });
    expect(forged.statusCode).toBe(403);
    expect(await counts()).toEqual(before);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);

    const solved = await upload(temporaryBase(key), MINIMAL_PDF, { ip, headers: await captchaHeaders(server.app) });
    expect(solved.statusCode, solved.body).toBe(201);
    // Another address is not asked.
    const other = newClientAddress();
    expect((await upload(temporaryBase(await newKey(other)), MINIMAL_PDF, { ip: other })).statusCode).toBe(201);
  });

  it('refuses new temporary uploads with 507 when all of them together fill their budget; bookings keep working', async () => {
    await settings({ temporary_bytes_total: MIB, temporary_uploads_before_captcha: 100 });
    for (let index = 0; index < 3; index += 1) {
      const ip = newClientAddress();
      expect((await upload(temporaryBase(await newKey(ip)), pdfOf(300 * KIB), { ip })).statusCode).toBe(201);
    }
    const ip = newClientAddress();
    const key = await newKey(ip);
    const before = await counts();
    const full = await upload(temporaryBase(key), pdfOf(300 * KIB), { ip });
    expect(full.statusCode, full.body).toBe(507);
    expect(full.json()).toMatchObject({ code: 'insufficient_storage' });
    expect(full.json<{ message: string }>().message).toMatch(/bring the document on the day/);
    // A deliberate refusal, not a server failure: no error line per refused upload.
    expect(server.log.text()).not.toContain('"statusCode":507');
    expect(await counts()).toEqual(before);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);

    // A booking's own documents are not temporary: its patient still uploads.
    const signed = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
    const own = await upload(appointmentBase(LIAM.bookingKey), MINIMAL_PDF, { ip, cookie: sessionCookie(signed.browser.token) });
    expect(own.statusCode, own.body).toBe(201);
    await server.db.query(`delete from attachment where id = $1::uuid`, [own.json<{ id: string }>().id]);
  });

  it('warns once in the log and the audit log as the temporary total crosses 50% and 80% of its budget', async () => {
    await settings({ temporary_bytes_total: MIB, temporary_uploads_before_captcha: 100 });
    await server.db.query(`delete from audit_log where action = $1`, [BUDGET_ALERT_ACTION]);
    const warnings = (): Array<{ levelPercent: number; action: string }> =>
      server.log.lines
        .map((line) => JSON.parse(line) as { action?: string; levelPercent: number; msg: string })
        .filter((entry) => entry.action === BUDGET_ALERT_ACTION)
        .map((entry) => ({ levelPercent: entry.levelPercent, action: entry.action ?? '' }));
    const logged = warnings().length;
    const ip = newClientAddress();
    const key = await newKey(ip);
    const sizes: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      expect((await upload(temporaryBase(key), pdfOf(200 * KIB), { ip })).statusCode).toBe(201);
      sizes.push(warnings().length - logged);
    }
    // 200, 400 KiB: none; 600: 50%; 800: none again; 1000 KiB: 80%.
    expect(sizes).toEqual([0, 0, 1, 1, 2]);
    expect(warnings().slice(logged)).toEqual([
      { levelPercent: 50, action: BUDGET_ALERT_ACTION },
      { levelPercent: 80, action: BUDGET_ALERT_ACTION },
    ]);
    const audited = await server.db.query<{ actor: string; details: { levelPercent: number; budgetBytes: number } }>(
      `select actor, details from audit_log where action = $1 order by (details->>'levelPercent')::int`,
      [BUDGET_ALERT_ACTION],
    );
    expect(audited.map((row) => [row.actor, row.details.levelPercent, row.details.budgetBytes])).toEqual([
      ['system', 50, MIB],
      ['system', 80, MIB],
    ]);
  });

  it("says the booking's document space is full, not that the largest file is 0 MB", async () => {
    await settings({ max_bytes_per_booking: MIB, temporary_uploads_before_captcha: 100 });
    const ip = newClientAddress();
    const key = await newKey(ip);
    for (let index = 0; index < 3; index += 1) expect((await upload(temporaryBase(key), pdfOf(300 * KIB), { ip })).statusCode).toBe(201);
    const doesNotFit = await upload(temporaryBase(key), pdfOf(300 * KIB), { ip });
    expect(doesNotFit.statusCode).toBe(413);
    expect(doesNotFit.json()).toMatchObject({ code: 'document_space_full' });
    expect(doesNotFit.json<{ message: string }>().message).toBe(
      "This file does not fit in this booking's document space (0.1 MB left): choose a smaller file, replace a document, or bring this one on the day.",
    );
    await settings({ max_bytes_per_booking: 900 * KIB });
    const full = await upload(temporaryBase(key), MINIMAL_PDF, { ip });
    expect(full.statusCode).toBe(413);
    expect(full.json()).toEqual({
      code: 'document_space_full',
      message: "This booking's document space is full: replace a document with a smaller file, or bring this one on the day.",
      details: { leftBytes: 0 },
    });
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });
});
