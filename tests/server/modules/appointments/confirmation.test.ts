import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppointmentSummarySchema, type AppointmentSummary } from '@contract/api/appointments';
import { BOOKING_RECEIPT_COOKIE } from '../../../../src-server/modules/booking-access/public';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { appointmentBase, multipart, MINIMAL_PDF, send, temporaryBase } from '../attachments/attachments-kit';
import { book, patient, screenedKey, slotsOn } from '../booking/booking-test-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { CLIENT_HEADERS, signIn } from './self-service-kit';

// The confirmation's own address (docs/rules/booking.md#confirmation): the browser that booked
// reads it back with its receipt; a signed-in patient and staff as before; nobody else, and an
// unknown key answers exactly like a refused one. Its .ics is parsed back.

/** The receipt cookie (name=value) the booking call set. */
function receiptOf(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie'] ?? []].flat().find((value) => value.startsWith(`${BOOKING_RECEIPT_COOKIE}=`));
  expect(header, 'the booking sets a receipt').toBeDefined();
  expect(header).toMatch(/; HttpOnly; Secure; SameSite=None; Partitioned$/);
  expect(header).not.toMatch(/Max-Age|Expires/i);
  return (header ?? '').split(';')[0] ?? '';
}

/** RFC 5545 3.1: lines end with CRLF, at most 75 octets, continuations start with a space. */
function unfold(ics: string): string[] {
  expect(ics.endsWith('\r\n')).toBe(true);
  const physical = ics.slice(0, -2).split('\r\n');
  for (const line of physical) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  const lines: string[] = [];
  for (const line of physical) {
    if (line.startsWith(' ')) lines[lines.length - 1] += line.slice(1);
    else lines.push(line);
  }
  return lines;
}

/** The first property's value, TEXT unescaped (3.3.11). */
function property(lines: string[], name: string): string {
  const line = lines.find((candidate) => candidate.startsWith(`${name}:`));
  expect(line, name).toBeDefined();
  return (line ?? '')
    .slice(name.length + 1)
    .replace(/\\([\\;,nN])/g, (_match, character: string) => (character === 'n' || character === 'N' ? '\n' : character));
}

describe.each(backends())('booking confirmation and calendar file on %s', (backend) => {
  const server = useTestApp({ backend });
  beforeAll(() => setOtpRequired(server.db, false));

  const get = (url: string, cookie?: string) =>
    server.app.inject({ method: 'GET', url, headers: { ...CLIENT_HEADERS, ...(cookie === undefined ? {} : { cookie }) } });

  async function bookMri(date: string, slot: number) {
    const startsAt = (await slotsOn(server.app, 'mri-knee', 'parramatta', date))[slot]?.startsAt ?? '';
    const dateOfBirth = `1980-02-${String(slot + 10).padStart(2, '0')}`;
    // book() answers the MRI safety screening online first, as the web's flow does.
    const response = await book(server.app, {
      exams: ['mri-knee'],
      clinicSlug: 'parramatta',
      startsAt,
      patient: patient({ dateOfBirth, email: `confirm${slot}@example.com` }),
    });
    expect(response.statusCode, response.body).toBe(201);
    return { bookingKey: response.json<{ bookingKey: string }>().bookingKey, startsAt, dateOfBirth, receipt: receiptOf(response) };
  }

  it('lets the browser that booked read the confirmation back, with preparation that knows the screening was done', async () => {
    const booked = await bookMri('2026-03-20', 1);
    const response = await get(`/api/appointments/${booked.bookingKey}/confirmation`, booked.receipt);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const summary: AppointmentSummary = AppointmentSummarySchema.parse(response.json());
    expect(summary.bookingKey).toBe(booked.bookingKey);
    expect(summary.appointments[0]?.startsAt).toBe(booked.startsAt);
    const notes = summary.appointments[0]?.preparationNotes ?? '';
    expect(notes).toContain('You have completed the MRI safety questions online');
    expect(notes).not.toContain('Before you book');
    expect(notes).not.toContain('complete the MRI safety form');
    // Each sentence once.
    expect(notes.split('Remove all metal').length).toBe(2);
    // The appointment page as the signed-in patient says the same.
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const page = AppointmentSummarySchema.parse((await signed.get(`/api/appointments/${booked.bookingKey}`)).json());
    expect(page.appointments[0]?.preparationNotes).toBe(notes);
    expect((await signed.get(`/api/appointments/${booked.bookingKey}/confirmation`)).statusCode).toBe(200);
    expect((await signed.get(`/api/appointments/${booked.bookingKey}/calendar.ics`)).statusCode).toBe(200);
  });

  it('lists the documents sent while booking, by name, to the browser that booked and the signed-in patient only', async () => {
    const questionnaireKey = await screenedKey(server.app, ['mri-knee']);
    const [referral] = await server.db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
    const upload = (fields: Record<string, string>, name: string) =>
      send(
        server.app,
        {},
        'POST',
        temporaryBase(questionnaireKey),
        multipart(fields, { name, type: 'application/pdf', bytes: MINIMAL_PDF }),
      );
    expect((await upload({}, 'letter.pdf')).statusCode).toBe(201);
    expect((await upload({ documentTypeId: referral?.id ?? '' }, 'referral.pdf')).statusCode).toBe(201);
    const startsAt = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-25'))[4]?.startsAt ?? '';
    const dateOfBirth = '1984-08-19';
    const response = await book(server.app, {
      exams: ['mri-knee'],
      clinicSlug: 'parramatta',
      startsAt,
      questionnaireKey,
      patient: patient({ dateOfBirth, email: 'documents@example.com' }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const { bookingKey } = response.json<{ bookingKey: string }>();
    const receipt = receiptOf(response);

    const summary = AppointmentSummarySchema.parse((await get(`/api/appointments/${bookingKey}/confirmation`, receipt)).json());
    // Typed documents first, then the others (no title); names only: no content, id or link.
    expect(summary.documents).toEqual([
      { title: 'Referral', fileName: 'referral.pdf' },
      { title: null, fileName: 'letter.pdf' },
    ]);
    const signed = await signIn(server.app, bookingKey, dateOfBirth);
    expect(AppointmentSummarySchema.parse((await signed.get(`/api/appointments/${bookingKey}`)).json()).documents).toEqual(
      summary.documents,
    );

    // Another booking's receipt, or none, reads nothing of them.
    const other = await bookMri('2026-03-25', 6);
    for (const refused of [
      await get(`/api/appointments/${bookingKey}/confirmation`, other.receipt),
      await get(`/api/appointments/${bookingKey}/confirmation`),
    ]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.body).not.toContain('referral.pdf');
    }
    const own = AppointmentSummarySchema.parse((await get(`/api/appointments/${other.bookingKey}/confirmation`, other.receipt)).json());
    expect(own.documents).toEqual([]);
  });

  it('refuses without the receipt, with another booking’s, with a forged one, and answers an unknown key the same', async () => {
    const first = await bookMri('2026-03-20', 3);
    const second = await bookMri('2026-03-20', 5);
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
    const forged = `${BOOKING_RECEIPT_COOKIE}=${first.receipt.split('=')[1]?.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))}`;
    for (const path of ['confirmation', 'calendar.ics']) {
      const refusals = [
        await get(`/api/appointments/${first.bookingKey}/${path}`),
        await get(`/api/appointments/${first.bookingKey}/${path}`, second.receipt),
        await get(`/api/appointments/${first.bookingKey}/${path}`, forged),
        await get(`/api/appointments/${unknown}/${path}`, first.receipt),
        await get(`/api/appointments/${unknown}/${path}`),
      ];
      for (const refused of refusals) {
        expect(refused.statusCode).toBe(401);
        expect(refused.body).toBe(refusals[0]?.body);
      }
      expect((await get(`/api/appointments/${second.bookingKey}/${path}`, second.receipt)).statusCode).toBe(200);
    }
    // The receipt reads; it never changes anything, nor opens the booking's other records.
    expect((await get(`/api/appointments/${second.bookingKey}`, second.receipt)).statusCode).toBe(401);
    expect((await get(`${appointmentBase(second.bookingKey)}`, second.receipt)).statusCode).toBe(401);
  });

  it('serves an .ics with the appointment’s start, end, the clinic’s address and the preparation, parsed back', async () => {
    const booked = await bookMri('2026-03-23', 2);
    const response = await get(`/api/appointments/${booked.bookingKey}/calendar.ics`, booked.receipt);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/calendar; charset=utf-8/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="appointment-2026-03-23.ics"');
    const lines = unfold(response.body);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
    const summary = AppointmentSummarySchema.parse(
      (await get(`/api/appointments/${booked.bookingKey}/confirmation`, booked.receipt)).json(),
    );
    const appointment = summary.appointments[0];
    const utc = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    expect(property(lines, 'DTSTART')).toBe(utc(booked.startsAt));
    expect(property(lines, 'DTEND')).toBe(utc(appointment?.endsAt ?? ''));
    expect(property(lines, 'DTSTAMP')).toMatch(/^\d{8}T\d{6}Z$/);
    expect(property(lines, 'UID')).toMatch(/^[0-9a-f]{32}@/);
    expect(property(lines, 'UID')).not.toContain(booked.bookingKey);
    expect(property(lines, 'SUMMARY')).toContain('MRI knee');
    expect(property(lines, 'LOCATION')).toBe(`${summary.clinic.name}, ${summary.clinic.address}`);
    const description = property(lines, 'DESCRIPTION');
    expect(description).toContain('You have completed the MRI safety questions online');
    expect(description).not.toContain('Before you book');
  });

  it('says the referral is with us once it was uploaded, instead of "Bring your referral"', async () => {
    const startsAt = (await slotsOn(server.app, 'ct-brain', 'parramatta', '2026-03-24'))[2]?.startsAt ?? '';
    const dateOfBirth = '1975-06-07';
    const response = await book(server.app, { exams: ['ct-brain'], clinicSlug: 'parramatta', startsAt, patient: patient({ dateOfBirth }) });
    expect(response.statusCode, response.body).toBe(201);
    const { bookingKey } = response.json<{ bookingKey: string }>();
    const receipt = receiptOf(response);
    const before = AppointmentSummarySchema.parse((await get(`/api/appointments/${bookingKey}/confirmation`, receipt)).json());
    expect(before.appointments[0]?.preparationNotes).toContain('Bring your referral');

    const signed = await signIn(server.app, bookingKey, dateOfBirth);
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
    const body = multipart(
      { documentTypeId: row?.id ?? '', referralDate: '2026-03-02', referringDoctor: 'Dr Ada Lovelace' },
      { name: 'referral.pdf', type: 'application/pdf', bytes: MINIMAL_PDF },
    );
    const uploaded = await server.app.inject({
      method: 'POST',
      url: appointmentBase(bookingKey),
      headers: { ...CLIENT_HEADERS, cookie: `__Host-portal_session=${signed.browser.token ?? ''}`, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const after = AppointmentSummarySchema.parse((await get(`/api/appointments/${bookingKey}/confirmation`, receipt)).json());
    const notes = after.appointments[0]?.preparationNotes ?? '';
    expect(notes).not.toContain('Bring your referral');
    expect(notes).toContain('Your referral is already with us');
  });
});
