import { describe, expect, it } from 'vitest';
import { PATIENT_LOOKUP_LIMITS, PATIENT_LOOKUP_PATH, PatientLookupResponseSchema } from '@contract/api/patient-lookup';
import { backends } from '../../helpers/database';
import { newClientAddress } from '../booking/booking-test-kit';
import {
  ADMIN_CLAIMS,
  KIOSK_ADMIN_CLAIMS,
  REFERRER_CLAIMS,
  STAFF_CLAIMS,
  useStaffTestApp,
  type StaffBrowser,
} from '../staff-access/identity-kit';

// Staff look up a patient who booked before (docs/rules/booking.md#patient-lookup): staff and
// admin only, every lookup audited without what was searched for, and limited per staff member.

const LIAM = { lastName: 'Example', firstName: 'Liam', dateOfBirth: '1991-03-14', email: 'liam.example@example.com', phone: '0491570006' };

describe.each(backends())('staff patient lookup on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, staffAddress: newClientAddress });

  const lookup = (browser: StaffBrowser, body: object) => browser.request('POST', PATIENT_LOOKUP_PATH, body);

  async function found(browser: StaffBrowser, body: object) {
    const response = await lookup(browser, body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return PatientLookupResponseSchema.parse(response.json());
  }

  async function auditRows(action: string) {
    return server.db.query<{ actor: string; details: Record<string, unknown> }>(
      `select actor, details from audit_log where action = $1 order by id`,
      [action],
    );
  }

  it('should find a patient by last name and date of birth, once although they booked three times, with their latest appointment', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const answer = await found(staff, { by: 'name', lastName: 'example', dateOfBirth: LIAM.dateOfBirth });
    expect(answer.more).toBe(false);
    expect(answer.patients).toHaveLength(1);
    const [liam] = answer.patients;
    expect(liam).toMatchObject({
      title: 'Mr',
      firstName: 'Liam',
      lastName: 'Example',
      dateOfBirth: LIAM.dateOfBirth,
      email: LIAM.email,
      contactNumber: LIAM.phone,
      postalCode: '2150',
    });
    // The seed's latest of Liam's bookings is a week ahead, an MRI at Parramatta.
    expect(liam?.lastAppointment?.clinicName).toMatch(/Parramatta/);
    expect(new Date(liam?.lastAppointment?.startsAt ?? 0).getTime()).toBeGreaterThan(server.clock.now().getTime());
  });

  it('should narrow by the start of the first name, and find nobody with another date of birth', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    expect((await found(staff, { by: 'name', lastName: 'Example', firstName: 'li', dateOfBirth: LIAM.dateOfBirth })).patients).toHaveLength(
      1,
    );
    expect((await found(staff, { by: 'name', lastName: 'Example', firstName: 'Zed', dateOfBirth: LIAM.dateOfBirth })).patients).toEqual([]);
    expect((await found(staff, { by: 'name', lastName: 'Example', dateOfBirth: '1991-03-15' })).patients).toEqual([]);
  });

  it('should find by e-mail in any case, and by phone however it is typed', async () => {
    const staff = await signedIn(ADMIN_CLAIMS);
    const byEmail = await found(staff, { by: 'email', email: ' Liam.Example@EXAMPLE.com ' });
    expect(byEmail.patients.map((patient) => patient.firstName)).toEqual(['Liam']);
    for (const phone of ['0491570006', '0491 570 006', '+61 491 570 006', '(04) 9157-0006']) {
      const byPhone = await found(staff, { by: 'phone', phone });
      expect(
        byPhone.patients.map((patient) => `${patient.firstName} ${patient.lastName}`),
        phone,
      ).toEqual(['Liam Example']);
    }
  });

  it('should answer at most ten people and say there are more', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    for (let index = 0; index < 12; index += 1) {
      await server.db.query(
        `insert into patient (title, first_name, last_name, date_of_birth, email, contact_number, postcode)
         values ('Ms', $1, 'Namesake', '1980-01-01', $2, '0400000000', '2000')`,
        [`Person${String.fromCharCode(65 + index)}`, `namesake${index}@example.com`],
      );
    }
    const answer = await found(staff, { by: 'name', lastName: 'Namesake', dateOfBirth: '1980-01-01' });
    expect(answer.patients).toHaveLength(10);
    expect(answer.more).toBe(true);
    expect(answer.patients.every((patient) => patient.lastAppointment === null)).toBe(true);
  });

  it('should audit each lookup by who and how, never by what was searched for', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const before = (await auditRows('staff_patient_lookup')).length;
    await found(staff, { by: 'phone', phone: LIAM.phone });
    const rows = await auditRows('staff_patient_lookup');
    expect(rows).toHaveLength(before + 1);
    const row = rows.at(-1);
    expect(row?.actor).toMatch(/^staff:[0-9a-f]{16}$/);
    expect(row?.details).toEqual({ by: 'phone', found: 1, more: false });
    expect(JSON.stringify(row)).not.toMatch(/0491|Example|Liam/);
  });

  it.each([
    ['a last name with digits', { by: 'name', lastName: 'Ex4mple', dateOfBirth: LIAM.dateOfBirth }],
    ['no date of birth', { by: 'name', lastName: 'Example' }],
    ['an impossible date of birth', { by: 'name', lastName: 'Example', dateOfBirth: '1991-02-30' }],
    ['a phone with letters', { by: 'phone', phone: '0491 CALL ME' }],
    ['a phone too short to be one person', { by: 'phone', phone: '0491' }],
    ['an e-mail without a domain', { by: 'email', email: 'liam@' }],
    ['an unknown way of looking up', { by: 'medicare', medicare: '2123456701' }],
    ['an extra field', { by: 'email', email: LIAM.email, everyone: true }],
  ])('should refuse %s with a 400 and look nothing up', async (_case, body) => {
    const staff = await signedIn(STAFF_CLAIMS);
    const before = (await auditRows('staff_patient_lookup')).length;
    const response = await lookup(staff, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.any(String) });
    expect(await auditRows('staff_patient_lookup')).toHaveLength(before);
  });

  it.each([
    ['a referring doctor', REFERRER_CLAIMS],
    ['a kiosk administrator', KIOSK_ADMIN_CLAIMS],
  ])('should refuse %s (403) and answer no patient', async (_who, claims) => {
    const browser = await signedIn(claims);
    const response = await lookup(browser, { by: 'email', email: LIAM.email });
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('Liam');
  });

  it('should refuse anyone not signed in as staff (401)', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: PATIENT_LOOKUP_PATH,
      remoteAddress: newClientAddress(),
      payload: { by: 'email', email: LIAM.email },
    });
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain('Liam');
  });

  it('should limit one staff member to a burst of lookups, tell them when to try again, and let another staff member on', async () => {
    const busy = await signedIn({ ...STAFF_CLAIMS, oid: 'busy-staff-member', sub: 'busy-staff-member' });
    for (let index = 0; index < PATIENT_LOOKUP_LIMITS.perTenMinutes; index += 1) {
      const response = await lookup(busy, { by: 'email', email: `nobody${index}@example.com` });
      expect(response.statusCode, response.body).toBe(200);
    }
    const refused = await lookup(busy, { by: 'email', email: LIAM.email });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(600);
    expect(refused.body).not.toContain('Liam');
    expect((await auditRows('staff_patient_lookup_refused')).at(-1)?.details).toEqual({ reason: 'too_many', window: 'ten_minutes' });

    // Someone else is not held up by it.
    const other = await signedIn({ ...ADMIN_CLAIMS, oid: 'another-staff-member', sub: 'another-staff-member' });
    expect((await lookup(other, { by: 'email', email: LIAM.email })).statusCode).toBe(200);

    // Once the ten minutes are over, the busy staff member may look up again.
    server.clock.advance(10 * 60_000);
    expect((await lookup(busy, { by: 'email', email: LIAM.email })).statusCode).toBe(200);
  });
});
