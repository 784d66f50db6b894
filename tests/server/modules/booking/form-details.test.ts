import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppointmentSummarySchema } from '@contract/api/appointments';
import { BookingFormDetailsSchema, OrganisationSearchResponseSchema } from '@contract/api/booking-form-details';
import { backends } from '../../helpers/database';
import { signIn } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';
import { newClientAddress, patient, slotsOn } from './booking-test-kit';
import { ORGANISATION_SEARCHES_PER_WINDOW } from '../../../../src-server/modules/referring-doctors/routes';

// The booking form's details (docs/rules/booking.md#booking-form-details): the provider's lists,
// the answers stored with the booking (and nothing stored for a bad one), the organisation search,
// and who reads the answers back.

const EXAM = 'ct-brain';
const CLINIC = 'parramatta';
const DATE = '2026-03-19';
const ENQUIRY_EXAM = 'ir-thyroid-fna';

const PRIVATE = { insurance: { typeCode: 'PRIVATE', fundName: 'Bupa', memberNumber: '1234 5678' } };
const GOOD_DETAILS = {
  ...PRIVATE,
  ethnicityCode: 'ABORIGINAL',
  referringPractice: { name: 'Harbour Medical Centre', suburb: 'Parramatta' },
};

describe.each(backends())('booking form details on %s', (backend) => {
  const { server, signedIn: signedInStaff } = useStaffTestApp({ backend });
  beforeAll(() => setOtpRequired(server.db, false));
  beforeEach(async () => {
    await server.db.query(
      `update booking_form_settings set insurance_required = false, ethnicity_required = false, referring_practice_required = false`,
    );
  });

  async function book(formDetails: unknown, overrides: object = {}): Promise<LightMyRequestResponse> {
    const [slot] = await slotsOn(server.app, EXAM, CLINIC, DATE);
    if (slot === undefined) throw new Error('no free time left');
    return server.app.inject({
      method: 'POST',
      url: '/api/booking/appointments',
      remoteAddress: newClientAddress(),
      headers: { 'idempotency-key': randomUUID() },
      payload: { exams: [EXAM], clinicSlug: CLINIC, startsAt: slot.startsAt, patient: patient(), formDetails, ...overrides },
    });
  }

  const count = async (table: string): Promise<number> =>
    (await server.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]?.n ?? 0;

  it('answers the configured insurance types and ethnicity answers, "Prefer not to say" included', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/booking/form-details' });
    expect(response.statusCode).toBe(200);
    const details = BookingFormDetailsSchema.parse(response.json());
    expect(details.insurance.types.map((type) => [type.code, type.kind])).toEqual([
      ['MEDICARE', 'MEDICARE'],
      ['DVA', 'DVA'],
      ['PRIVATE', 'PRIVATE'],
      ['SELF_PAY', 'SELF_PAY'],
    ]);
    expect(details.ethnicity.options.map((option) => option.code)).toEqual([
      'NO',
      'ABORIGINAL',
      'TORRES_STRAIT_ISLANDER',
      'BOTH',
      'NOT_STATED',
    ]);
    expect(details).toMatchObject({
      insurance: { asked: true, required: false },
      ethnicity: { asked: true, required: false },
      referringPractice: { asked: true, required: false },
    });
    // "Prefer not to say" stays on offer when the provider's list leaves it out.
    await server.db.query(`update ethnicity_option set active = false where code = 'NOT_STATED'`);
    try {
      const again = BookingFormDetailsSchema.parse((await server.app.inject({ method: 'GET', url: '/api/booking/form-details' })).json());
      expect(again.ethnicity.options.at(-1)).toEqual({ code: 'NOT_STATED', label: 'Prefer not to say' });
    } finally {
      await server.db.query(`update ethnicity_option set active = true where code = 'NOT_STATED'`);
    }
  });

  it('stores the answers with the booking, with the labels of the moment', async () => {
    const response = await book(GOOD_DETAILS);
    expect(response.statusCode, response.body).toBe(201);
    const { bookingKey } = response.json<{ bookingKey: string }>();
    const [row] = await server.db.query(`select * from booking_form_details where booking_key = $1`, [bookingKey]);
    expect(row).toMatchObject({
      owner: 'APPOINTMENT',
      insurance_code: 'PRIVATE',
      insurance_kind: 'PRIVATE',
      insurance_label: 'Private health fund',
      insurance_member_number: '1234 5678',
      insurance_fund_name: 'Bupa',
      ethnicity_code: 'ABORIGINAL',
      ethnicity_label: 'Yes, Aboriginal',
      referring_practice_name: 'Harbour Medical Centre',
      referring_practice_suburb: 'Parramatta',
    });
  });

  it('stores nothing when no answer is given and none is required', async () => {
    const before = await count('booking_form_details');
    expect((await book(undefined)).statusCode).toBe(201);
    expect(await count('booking_form_details')).toBe(before);
  });

  it.each([
    ['an unknown insurance code', { insurance: { typeCode: 'NIB_GOLD' } }, 'formDetails/insurance/typeCode'],
    [
      'a private fund without a member number',
      { insurance: { typeCode: 'PRIVATE', fundName: 'Bupa' } },
      'formDetails/insurance/memberNumber',
    ],
    ['a private fund without its name', { insurance: { typeCode: 'PRIVATE', memberNumber: '123' } }, 'formDetails/insurance/fundName'],
    ['DVA without a file number', { insurance: { typeCode: 'DVA' } }, 'formDetails/insurance/memberNumber'],
    ['a member number for self-pay', { insurance: { typeCode: 'SELF_PAY', memberNumber: '123' } }, 'formDetails/insurance/memberNumber'],
    ['an unknown ethnicity', { ethnicityCode: 'MARTIAN' }, 'formDetails/ethnicityCode'],
    ['an over-long practice name', { referringPractice: { name: 'P'.repeat(121) } }, 'formDetails/referringPractice/name'],
    ['an unknown field', { religion: 'none' }, 'formDetails'],
    [
      'a member number with a control character',
      { insurance: { typeCode: 'DVA', memberNumber: 'NX\u0000123' } },
      'formDetails/insurance/memberNumber',
    ],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_name, formDetails, field) => {
    const [appointments, details] = [await count('appointment'), await count('booking_form_details')];
    const response = await book(formDetails);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; message: string; details: Array<{ in: string }> }>();
    expect(body.code).toBe('validation_failed');
    expect(body.message).not.toBe('');
    expect(body.details.map((detail) => detail.in).join(' ')).toContain(field);
    expect([await count('appointment'), await count('booking_form_details')]).toEqual([appointments, details]);
  });

  it('refuses Medicare without the Medicare number, and a missing answer the provider requires', async () => {
    const noMedicare = await book({ insurance: { typeCode: 'MEDICARE' } }, { patient: patient({ medicareNumber: undefined }) });
    expect(noMedicare.statusCode).toBe(400);
    expect(noMedicare.json()).toMatchObject({ details: [{ in: 'body/patient/medicareNumber' }] });
    await server.db.query(`update booking_form_settings set insurance_required = true, ethnicity_required = true`);
    const missing = await book({ ethnicityCode: 'NO' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ details: [{ in: 'body/formDetails/insurance' }] });
    expect((await book({ ...PRIVATE })).json()).toMatchObject({ details: [{ in: 'body/formDetails/ethnicityCode' }] });
    // "Prefer not to say" answers a required question.
    expect((await book({ ...PRIVATE, ethnicityCode: 'NOT_STATED' })).statusCode).toBe(201);
  });

  it('stores the answers of a booking request, and refuses a bad one with nothing stored', async () => {
    const request = (formDetails: unknown) =>
      server.app.inject({
        method: 'POST',
        url: '/api/booking/booking-requests',
        remoteAddress: newClientAddress(),
        headers: { 'idempotency-key': randomUUID() },
        payload: { exams: [ENQUIRY_EXAM], patient: patient(), formDetails },
      });
    const before = await count('booking_request');
    expect((await request({ insurance: { typeCode: 'DVA' } })).statusCode).toBe(400);
    expect(await count('booking_request')).toBe(before);
    const made = await request({ insurance: { typeCode: 'DVA', memberNumber: 'NX123456' }, ethnicityCode: 'NOT_STATED' });
    expect(made.statusCode, made.body).toBe(201);
    const [row] = await server.db.query(
      `select owner, insurance_member_number, ethnicity_code from booking_form_details where booking_key = $1`,
      [made.json<{ bookingKey: string }>().bookingKey],
    );
    expect(row).toEqual({ owner: 'BOOKING_REQUEST', insurance_member_number: 'NX123456', ethnicity_code: 'NOT_STATED' });
  });

  it('shows the answers to the booking’s patient and to staff, never to another patient or the booking browser’s receipt', async () => {
    const response = await book(GOOD_DETAILS);
    const { bookingKey } = response.json<{ bookingKey: string }>();
    const expected = {
      insurance: { code: 'PRIVATE', kind: 'PRIVATE', label: 'Private health fund', memberNumber: '1234 5678', fundName: 'Bupa' },
      ethnicity: { code: 'ABORIGINAL', label: 'Yes, Aboriginal' },
      referringPractice: { name: 'Harbour Medical Centre', suburb: 'Parramatta' },
    };
    const own = await signIn(server.app, bookingKey, '1985-12-10');
    const summary = AppointmentSummarySchema.parse((await own.get(`/api/appointments/${bookingKey}`)).json());
    expect(summary.formDetails).toEqual(expected);

    const staff = await signedInStaff(STAFF_CLAIMS, newClientAddress());
    const confirmation = await staff.request('GET', `/api/appointments/${bookingKey}/confirmation`);
    expect(confirmation.statusCode, confirmation.body).toBe(200);
    expect(confirmation.json()).toMatchObject({ formDetails: expected });

    // The browser that booked may read its confirmation back, without the answers.
    const receipt = String(response.headers['set-cookie']).split(';')[0] ?? '';
    const byReceipt = await server.app.inject({
      method: 'GET',
      url: `/api/appointments/${bookingKey}/confirmation`,
      headers: { cookie: receipt },
    });
    expect(byReceipt.statusCode, byReceipt.body).toBe(200);
    expect(byReceipt.json()).toMatchObject({ formDetails: null });

    // Another booking's patient: the session guard's 401, nothing of the booking.
    const other = await book(GOOD_DETAILS);
    const stranger = await signIn(server.app, other.json<{ bookingKey: string }>().bookingKey, '1985-12-10');
    for (const url of [`/api/appointments/${bookingKey}`, `/api/appointments/${bookingKey}/confirmation`]) {
      const refused = await stranger.get(url);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).not.toContain('Bupa');
    }
  });

  describe('GET /api/booking/referring-organisations', () => {
    const search = (q: string, remoteAddress = newClientAddress()) =>
      server.app.inject({ method: 'GET', url: `/api/booking/referring-organisations?q=${encodeURIComponent(q)}`, remoteAddress });

    it('finds practices of the directory by name and suburb only, at most 10', async () => {
      const [practice] = await server.db.query<{ practice_name: string }>(
        `select practice_name from referring_doctor group by practice_name order by count(*) desc, practice_name limit 1`,
      );
      const name = practice?.practice_name ?? '';
      const response = await search(name.slice(0, 12));
      expect(response.statusCode, response.body).toBe(200);
      const body = OrganisationSearchResponseSchema.parse(response.json());
      expect(body.organisations.length).toBeGreaterThan(0);
      expect(body.organisations.length).toBeLessThanOrEqual(10);
      expect(body.organisations.map((organisation) => organisation.name)).toContain(name);
      for (const organisation of body.organisations) expect(Object.keys(organisation).sort()).toEqual(['name', 'suburb']);
      // A broad word is capped too.
      const broad = OrganisationSearchResponseSchema.parse((await search('medical')).json());
      expect(broad.organisations).toHaveLength(10);
      expect(response.body).not.toMatch(/"(firstName|lastName|providerNumber|id)"/);
    });

    it('needs 3 to 50 characters', async () => {
      for (const q of ['', 'ab', '  a  ', 'x'.repeat(51)]) expect((await search(q)).statusCode, q).toBe(400);
      expect((await search('zzqx')).json()).toEqual({ organisations: [] });
    });

    it('limits one address to 60 searches in ten minutes', async () => {
      const address = newClientAddress();
      for (let index = 0; index < ORGANISATION_SEARCHES_PER_WINDOW; index++)
        expect((await search('harbour', address)).statusCode).toBe(200);
      const refused = await search('harbour', address);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await search('harbour')).statusCode).toBe(200);
    });
  });
});
