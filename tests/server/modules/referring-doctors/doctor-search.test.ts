import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DOCTOR_SEARCH_LIMIT,
  DOCTOR_SEARCH_MESSAGES,
  DoctorSearchResponseSchema,
  type ReferringDoctor,
} from '@contract/api/referring-doctors';
import { DOCTOR_SEARCH_INDEX, GENERATED_DOCTOR_COUNT } from '../../../../src-server/db/seed/referring-doctors';
import { doctorSearchQuery } from '../../../../src-server/modules/referring-doctors/repository';
import { doctorSearchTerms } from '../../../../src-server/modules/referring-doctors/service';
import { backends } from '../../helpers/database';
import { signIn, type Signed } from '../appointments/self-service-kit';
import { AMELIA, LIAM, setOtpRequired, UNKNOWN_KEY } from '../patient-access/sign-in-kit';
import { REFERRER_CLAIMS, STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';

// GET /api/secured/appointments/{bookingKey}/doctor_search/{text} on the seeded demo directory
// (20,000 generated doctors plus the hand-written ones) and a few doctors this file adds, whose
// made-up name "Zyxwell" nothing else contains (docs/rules/check-in.md#referring-doctors).

const CHLOE_REQUEST = { bookingKey: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23' };

const ZYXWELL_DOCTORS = [
  // The last name is the word: first.
  {
    providerNumber: '0000011Y',
    firstName: 'Quentin',
    lastName: 'Zyxwell',
    practiceName: 'Harbour Clinic',
    city: 'Sydney',
    postcode: '2000',
  },
  // The last name starts with it, but is longer: second.
  { providerNumber: '0000021Y', firstName: 'Ruth', lastName: 'Zyxwellington', practiceName: 'Bay Clinic', city: 'Manly', postcode: '2095' },
  // Only the first name holds it: after the last names, more like it than...
  { providerNumber: '0000031Y', firstName: 'Zyxwellina', lastName: 'Adams', practiceName: 'Hill Clinic', city: 'Perth', postcode: '6000' },
  // ...a practice named after it.
  {
    providerNumber: '0000041Y',
    firstName: 'Amy',
    lastName: 'Brown',
    practiceName: 'Zyxwell Street Clinic',
    city: 'Hobart',
    postcode: '7000',
  },
];

const searchUrl = (bookingKey: string, text: string): string =>
  `/api/secured/appointments/${bookingKey}/doctor_search/${encodeURIComponent(text)}`;

describe.each(backends())('doctor search on %s', (backend) => {
  const { server, signedIn: staffSignedIn } = useStaffTestApp({ backend });
  let liam: Signed;

  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
    for (const doctor of ZYXWELL_DOCTORS) {
      await server.db.query(
        `insert into referring_doctor (provider_number, first_name, last_name, practice_name, city, postcode) values ($1, $2, $3, $4, $5, $6)`,
        [doctor.providerNumber, doctor.firstName, doctor.lastName, doctor.practiceName, doctor.city, doctor.postcode],
      );
    }
  });

  async function search(text: string): Promise<ReferringDoctor[]> {
    const response = await liam.get(searchUrl(LIAM.bookingKey, text));
    expect(response.statusCode, response.body).toBe(200);
    return DoctorSearchResponseSchema.parse(response.json()).doctors;
  }

  it('holds the generated directory: at least 20,000 doctors', async () => {
    const [row] = await server.db.query<{ count: number }>('select count(*)::int as count from referring_doctor');
    expect(GENERATED_DOCTOR_COUNT).toBeGreaterThanOrEqual(20_000);
    expect(row?.count).toBeGreaterThanOrEqual(GENERATED_DOCTOR_COUNT);
  });

  it('answers from the trigram index (EXPLAIN of the search as it runs)', async () => {
    const { sql, params } = doctorSearchQuery(doctorSearchTerms('whitf'));
    const plan = await server.db.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain(`Bitmap Index Scan on ${DOCTOR_SEARCH_INDEX}`);
  });

  it('finds by the start of a last name, with the answer shape of the contract', async () => {
    const doctors = await search('whitf');
    expect(doctors[0]).toEqual({
      id: expect.any(String),
      displayName: 'Dr Sarah Whitfield',
      firstName: 'Sarah',
      lastName: 'Whitfield',
      providerNumber: '4817263B',
      practiceName: 'Macquarie Street Family Practice',
      city: 'Parramatta',
      postcode: '2150',
    });
  });

  it('ranks a last name that is the word, then one starting with it, then other names, then practices', async () => {
    const doctors = await search('zyxwell');
    expect(doctors.map((doctor) => doctor.providerNumber)).toEqual(ZYXWELL_DOCTORS.map((doctor) => doctor.providerNumber));
  });

  it('puts a doctor matching every word before those matching one', async () => {
    const doctors = await search('ruth zyxwell');
    expect(doctors[0]?.displayName).toBe('Dr Ruth Zyxwellington');
    expect(doctors.map((doctor) => doctor.lastName)).toContain('Zyxwell');
  });

  it('puts last names starting with the text before first names and practices holding it', async () => {
    const doctors = await search('tan');
    expect(doctors[0]?.displayName).toBe('Dr Mei Lin Tan');
    const startsWithTan = doctors.map((doctor) => doctor.lastName.toLowerCase().startsWith('tan'));
    // true, true, ..., then false only: no other match comes before a last name starting with "tan".
    expect(startsWithTan).toEqual([...startsWithTan].sort((a, b) => Number(b) - Number(a)));
    expect(startsWithTan[0]).toBe(true);
  });

  it('finds by city, postcode and provider number', async () => {
    const westmead = await search('westmead');
    expect(westmead.length).toBe(DOCTOR_SEARCH_LIMIT);
    expect(westmead.every((doctor) => doctor.city === 'Westmead')).toBe(true);

    const parramatta = await search('2150');
    expect(parramatta.length).toBe(DOCTOR_SEARCH_LIMIT);
    expect(parramatta.every((doctor) => doctor.postcode === '2150')).toBe(true);

    const [generated] = await server.db.query<{ provider_number: string; first_name: string; last_name: string }>(
      `select provider_number, first_name, last_name from referring_doctor where provider_number like '3%' order by provider_number limit 1`,
    );
    const byNumber = await search(generated?.provider_number.toLowerCase() ?? '');
    expect(byNumber[0]?.providerNumber).toBe(generated?.provider_number);
    expect(byNumber).toHaveLength(1);
  });

  it('answers at most 20 doctors', async () => {
    const [row] = await server.db.query<{ count: number }>(
      `select count(*)::int as count from referring_doctor where lower(last_name) like 'smith%'`,
    );
    expect(row?.count).toBeGreaterThan(DOCTOR_SEARCH_LIMIT);
    const doctors = await search('smith');
    expect(doctors).toHaveLength(DOCTOR_SEARCH_LIMIT);
    expect(doctors.every((doctor) => doctor.lastName === 'Smith')).toBe(true);
  });

  it('trims, collapses spaces and lower-cases the text', async () => {
    expect(await search('  WHITFIELD   ')).toEqual(await search('whitfield'));
    expect((await search('Sarah    Whitfield'))[0]?.displayName).toBe('Dr Sarah Whitfield');
  });

  it('takes LIKE wildcards literally and answers no one for text nobody has', async () => {
    expect(await search('%%%')).toEqual([]);
    expect(await search('___')).toEqual([]);
    expect(await search('qqxzv')).toEqual([]);
  });

  it('with no word of 3 characters, matches names whose words start with the typed ones', async () => {
    const doctors = await search('s whitf');
    expect(doctors[0]?.displayName).toBe('Dr Sarah Whitfield');
    const initials = await search('q z');
    expect(initials.map((doctor) => doctor.displayName)).toContain('Dr Quentin Zyxwell');
    expect(initials.every((doctor) => /^q\S* z/i.test(`${doctor.firstName} ${doctor.lastName}`))).toBe(true);
  });

  it.each([
    ['ab', DOCTOR_SEARCH_MESSAGES.tooShort],
    ['   ab   ', DOCTOR_SEARCH_MESSAGES.tooShort],
    ['x'.repeat(51), DOCTOR_SEARCH_MESSAGES.tooLong],
  ])('refuses %j with 400 and says why', async (text, message) => {
    const response = await liam.get(searchUrl(LIAM.bookingKey, text));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed', details: [{ in: 'params/text', message }] });
  });

  describe('who may search', () => {
    const expectRefused = (response: LightMyRequestResponse, status: number) => {
      expect(response.statusCode, response.body).toBe(status);
      expect(response.body).not.toContain('Whitfield');
    };

    it('refuses without a session (401), before looking at the text', async () => {
      expectRefused(await server.app.inject({ method: 'GET', url: searchUrl(LIAM.bookingKey, 'whitfield') }), 401);
      expectRefused(await server.app.inject({ method: 'GET', url: searchUrl(LIAM.bookingKey, 'ab') }), 401);
    });

    it("refuses another booking's session (401, as for none) and a booking-request session", async () => {
      const amelia = await signIn(server.app, AMELIA.bookingKey, AMELIA.dateOfBirth);
      expectRefused(await amelia.get(searchUrl(LIAM.bookingKey, 'whitfield')), 401);
      expect((await amelia.get(searchUrl(AMELIA.bookingKey, 'whitfield'))).statusCode).toBe(200);
      const chloe = await signIn(server.app, CHLOE_REQUEST.bookingKey, CHLOE_REQUEST.dateOfBirth, 'BOOKING_REQUEST');
      expectRefused(await chloe.get(searchUrl(CHLOE_REQUEST.bookingKey, 'whitfield')), 401);
    });

    it('lets staff search under any appointment booking (404 for a key no booking has); a referrer gets 401', async () => {
      const staff = await staffSignedIn(STAFF_CLAIMS);
      const response = await staff.request('GET', searchUrl(LIAM.bookingKey, 'whitfield'));
      expect(response.statusCode, response.body).toBe(200);
      expect(DoctorSearchResponseSchema.parse(response.json()).doctors[0]?.displayName).toBe('Dr Sarah Whitfield');
      expectRefused(await staff.request('GET', searchUrl(UNKNOWN_KEY, 'whitfield')), 404);
      const referrer = await staffSignedIn(REFERRER_CLAIMS);
      expectRefused(await referrer.request('GET', searchUrl(LIAM.bookingKey, 'whitfield')), 401);
    });
  });

  it('is in the API document', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    const document = response.json<{ paths: Record<string, { get?: { tags?: string[] } }> }>();
    expect(document.paths['/api/secured/appointments/{bookingKey}/doctor_search/{text}']?.get?.tags).toEqual(['referring-doctors']);
  });
});
