import { describe, expect, it } from 'vitest';
import {
  AvailabilityResponseSchema,
  BookingSettingsSchema,
  CatalogueSchema,
  ClinicsResponseSchema,
  MonthResponseSchema,
} from '@contract/api/booking';
import { ApiErrorBodySchema } from '@contract/errors';
import { caseOutcome, EXAM_SEARCH_CASES } from '../../../web/features/booking/exam-search-cases';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { availability, slotsOn, sydney } from './booking-test-kit';

// SEED_NOW is Tuesday 2026-03-10 12:00 in Sydney (daylight time, UTC+11); lead time 120 min,
// horizon 90 days, holds 10 min, a 15-minute grid (resources/demo-provider/booking.json).

describe.each(backends())('booking API, catalogue, clinics and availability, on %s', (backend) => {
  const server = useTestApp({ backend });

  describe('catalogue, settings and location', () => {
    it('GET /api/booking/catalogue lists modalities, body parts and exams with durations and flags', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/api/booking/catalogue' });
      expect(response.statusCode).toBe(200);
      const body = CatalogueSchema.parse(response.json());
      expect(body.modalities.map((modality) => modality.slug)).toContain('mr');
      const knee = body.exams.find((exam) => exam.slug === 'mri-knee');
      expect(knee).toMatchObject({ durationMinutes: 30, enquiryOnly: false, medicareRequired: true, modalityName: 'MRI' });
      expect(knee?.bodyPartSlugs).toEqual(['knee']);
      expect(body.exams.find((exam) => exam.slug === 'mri-cardiac')).toMatchObject({
        enquiryOnly: true,
        showBookingRequestInfoModal: true,
      });
    });

    it('GET /api/booking/catalogue sends each exam text once: the preparation only as preparationNotes', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/api/booking/catalogue' });
      const body = CatalogueSchema.parse(response.json());
      for (const exam of body.exams) {
        const texts = [exam.notes, exam.examNotes, exam.preparationNotes].filter((text) => text !== null && text !== '');
        expect(new Set(texts).size, exam.slug).toBe(texts.length);
      }
      const chest = body.exams.find((exam) => exam.slug === 'ct-chest');
      expect(chest?.preparationNotes).toMatch(/Arrive 15 minutes/);
      expect(chest?.examNotes).toBeNull();
      expect(chest?.notes).toMatch(/Low-dose/);
    });

    it('GET /api/booking/exams searches names case-insensitively and filters by modality and body part', async () => {
      const search = await server.app.inject({ method: 'GET', url: '/api/booking/exams?search=KNEE' });
      expect(
        search
          .json<Array<{ slug: string }>>()
          .map((exam) => exam.slug)
          .sort(),
      ).toEqual(['mri-knee', 'xr-knee']);
      const filtered = await server.app.inject({ method: 'GET', url: '/api/booking/exams?modality=mr&bodyPart=knee' });
      expect(filtered.json<Array<{ slug: string }>>().map((exam) => exam.slug)).toEqual(['mri-knee']);
      const unknownParameter = await server.app.inject({ method: 'GET', url: '/api/booking/exams?colour=red' });
      expect(unknownParameter.statusCode).toBe(400);
    });

    it('GET /api/booking/exams?search= answers the query table as the booking page does, best first', async () => {
      for (const example of EXAM_SEARCH_CASES) {
        const response = await server.app.inject({ method: 'GET', url: `/api/booking/exams?search=${encodeURIComponent(example.query)}` });
        expect(response.statusCode, example.query).toBe(200);
        const { actual, expected } = caseOutcome(
          example,
          response.json<Array<{ slug: string }>>().map((exam) => exam.slug),
        );
        expect(actual, example.query).toEqual(expected);
      }
      // A search narrowed by modality keeps the search's order; small words only narrow nothing.
      const narrowed = await server.app.inject({ method: 'GET', url: '/api/booking/exams?search=knee&modality=xr' });
      expect(narrowed.json<Array<{ slug: string }>>().map((exam) => exam.slug)).toEqual(['xr-knee']);
      const smallWords = await server.app.inject({ method: 'GET', url: '/api/booking/exams?search=the%20scan&modality=mr' });
      expect(smallWords.json<Array<{ slug: string }>>().every((exam) => exam.slug.startsWith('mri-'))).toBe(true);
    });

    it('GET /api/booking/settings answers the booking rules', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/api/booking/settings' });
      expect(BookingSettingsSchema.parse(response.json())).toEqual({
        defaultLocation: { latitude: -33.8688, longitude: 151.2093, label: 'Sydney' },
        maxDistanceKm: 1500,
        leadMinutes: 120,
        horizonDays: 90,
        holdMinutes: 10,
      });
    });

    it('GET /api/booking/postcodes/{postcode} locates a postcode, 404 for an unknown one, 400 for a malformed one', async () => {
      const found = await server.app.inject({ method: 'GET', url: '/api/booking/postcodes/2150' });
      expect(found.statusCode).toBe(200);
      expect(found.json()).toMatchObject({ latitude: -33.815, longitude: 151.0011 });
      const unknown = await server.app.inject({ method: 'GET', url: '/api/booking/postcodes/0999' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toContain('0999');
      const malformed = await server.app.inject({ method: 'GET', url: '/api/booking/postcodes/21a0' });
      expect(malformed.statusCode).toBe(400);
    });

    it('GET /api/booking/walk-in-exams lists walk-in exams, by modality slug', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/api/booking/walk-in-exams?modality=xr' });
      expect(response.statusCode).toBe(200);
      const names = response.json<Array<{ name: string; prepTime: number; minutesPrior: number }>>().map((exam) => exam.name);
      expect(names).toContain('Chest X-ray (walk-in)');
      expect(names.every((name) => name.includes('X-ray'))).toBe(true);
    });
  });

  describe('GET /api/booking/clinics', () => {
    it('answers only clinics offering every exam, nearest first, each with its next free time', async () => {
      // Near Newcastle: Newcastle first; only clinics with both CT and MRI.
      const response = await server.app.inject({
        method: 'GET',
        url: '/api/booking/clinics?exams=ct-brain,mri-knee&lat=-32.93&lng=151.78',
      });
      const body = ClinicsResponseSchema.parse(response.json());
      expect(body.origin).toEqual({ latitude: -32.93, longitude: 151.78, usedDefault: false });
      const slugs = body.clinics.map((entry) => entry.clinic.slug);
      expect(slugs[0]).toBe('newcastle');
      expect(slugs).not.toContain('bondi-junction');
      expect(slugs).not.toContain('charlestown');
      const distances = body.clinics.map((entry) => entry.distanceKm);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      for (const entry of body.clinics) {
        expect(entry.nextAvailable).not.toBeNull();
        expect(Date.parse(entry.nextAvailable ?? '')).toBeGreaterThanOrEqual(Date.parse(SEED_NOW) + 120 * 60_000);
      }
    });

    it('uses the default location when no position is given or it is beyond the maximum distance', async () => {
      for (const query of ['exams=xr-chest', 'exams=xr-chest&lat=51.5&lng=-0.12']) {
        const body = ClinicsResponseSchema.parse((await server.app.inject({ method: 'GET', url: `/api/booking/clinics?${query}` })).json());
        expect(body.origin).toEqual({ latitude: -33.8688, longitude: 151.2093, usedDefault: true });
      }
    });

    it('rejects unknown exams and bad coordinates with 400', async () => {
      const unknown = await server.app.inject({ method: 'GET', url: '/api/booking/clinics?exams=teleportation' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toContain('teleportation');
      const bad = await server.app.inject({ method: 'GET', url: '/api/booking/clinics?exams=ct-brain&lat=123&lng=0' });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('GET /api/booking/availability', () => {
    it('answers the contract shape: every requested clinic and day, in order, also days without times', async () => {
      const response = await server.app.inject({
        method: 'GET',
        url: '/api/booking/availability?exams=mri-knee&clinics=chatswood,parramatta&from=2026-03-14&days=3',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      const body = AvailabilityResponseSchema.parse(response.json());
      expect(body.clinics.map((clinic) => clinic.clinicSlug)).toEqual(['chatswood', 'parramatta']);
      expect(body.clinics[1]?.timeZone).toBe('Australia/Sydney');
      expect(body.clinics[1]?.days.map((day) => [day.date, day.slots.length > 0])).toEqual([
        ['2026-03-14', true],
        ['2026-03-15', false],
        ['2026-03-16', true],
      ]);
    });

    it('offers grid times inside opening hours, after the lead time, in the clinic zone', async () => {
      const today = await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-10');
      // 12:00 now + 120 min lead = 14:00 local.
      expect(today[0]).toEqual({ startsAt: sydney('2026-03-10', '14:00'), localTime: '14:00' });
      // Thursday 07:30-20:00: the last 30-minute start is 19:30.
      const thursday = await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-12');
      expect(thursday[0]?.localTime).toBe('07:30');
      expect(thursday.at(-1)?.localTime).toBe('19:30');
      expect(thursday.every((slot) => /^\d{2}:(00|15|30|45)$/.test(slot.localTime))).toBe(true);
    });

    it('keeps breaks free: no 30-minute MRI overlaps the 12:30-13:00 break', async () => {
      const times = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-13')).map((slot) => slot.localTime);
      expect(times).toContain('12:00');
      expect(times).not.toContain('12:15');
      expect(times).not.toContain('12:30');
      expect(times).not.toContain('12:45');
      expect(times).toContain('13:00');
      // CT has no break.
      expect((await slotsOn(server.app, 'ct-brain', 'parramatta', '2026-03-13')).map((slot) => slot.localTime)).toContain('12:30');
    });

    it('offers nothing on days without hours, on closed days, on public holidays, before today or beyond the horizon', async () => {
      await server.db.query(
        `insert into clinic_closed_date (clinic_id, closed_on) select id, '2026-03-20' from clinic where slug = 'parramatta'`,
      );
      await server.db.query(`insert into public_holiday (state, holiday_on, name) values ('NSW', '2026-03-23', 'Test holiday')`);
      const body = await availability(server.app, { exams: 'ct-brain', clinics: 'parramatta,coolangatta', from: '2026-03-19', days: 5 });
      const [parramatta, coolangatta] = body.clinics;
      const count = (days: typeof parramatta) => Object.fromEntries((days?.days ?? []).map((day) => [day.date, day.slots.length]));
      const parramattaDays = count(parramatta);
      expect(parramattaDays['2026-03-19']).toBeGreaterThan(0);
      expect(parramattaDays['2026-03-20']).toBe(0); // closed day
      expect(parramattaDays['2026-03-21']).toBeGreaterThan(0); // Saturday 08:00-13:00
      expect(parramattaDays['2026-03-22']).toBe(0); // Sunday: no hours
      expect(parramattaDays['2026-03-23']).toBe(0); // NSW public holiday
      // Coolangatta is in Queensland: the NSW holiday does not close it.
      expect(count(coolangatta)['2026-03-23']).toBeGreaterThan(0);
      // Before today and after today + 90 days there is nothing to book.
      expect(await slotsOn(server.app, 'ct-brain', 'parramatta', '2026-03-09')).toEqual([]);
      // (Monday 8 June is the NSW King's Birthday, so the horizon is checked in Queensland.)
      expect(await slotsOn(server.app, 'ct-brain', 'parramatta', '2026-06-08')).toEqual([]);
      expect((await slotsOn(server.app, 'ct-brain', 'coolangatta', '2026-06-08')).length).toBeGreaterThan(0);
      expect(await slotsOn(server.app, 'ct-brain', 'coolangatta', '2026-06-09')).toEqual([]);
    });

    it('is correct across the daylight-saving change (Sydney, Sunday 5 April 2026, 03:00 back to 02:00)', async () => {
      // Open 01:00-04:00 on Sundays: four real hours on the change day.
      await server.db.query(
        `insert into clinic_opening_hours (clinic_id, weekday, opens, closes) select id, 7, '01:00', '04:00' from clinic where slug = 'chatswood'`,
      );
      const slots = await slotsOn(server.app, 'ct-brain', 'chatswood', '2026-04-05');
      expect(slots[0]).toEqual({ startsAt: '2026-04-04T14:00:00.000Z', localTime: '01:00' });
      expect(slots.at(-1)).toEqual({ startsAt: '2026-04-04T17:45:00.000Z', localTime: '03:45' });
      expect(slots).toHaveLength(16);
      // 02:00-02:45 happen twice, first on daylight time (UTC+11) then on standard time (UTC+10).
      expect(slots.filter((slot) => slot.localTime === '02:00').map((slot) => slot.startsAt)).toEqual([
        '2026-04-04T15:00:00.000Z',
        '2026-04-04T16:00:00.000Z',
      ]);
      // Weekdays either side: 08:00 local is 21:00Z before the change and 22:00Z after it.
      expect((await slotsOn(server.app, 'ct-brain', 'chatswood', '2026-04-03'))[0]?.startsAt).toBe('2026-04-02T21:00:00.000Z');
      expect((await slotsOn(server.app, 'ct-brain', 'chatswood', '2026-04-06'))[0]?.startsAt).toBe('2026-04-05T22:00:00.000Z');
    });

    it('rejects bad questions with a clear 400', async () => {
      const cases = [
        ['exams=mri-knee&clinics=parramatta&from=2026-03-12&days=0', 'days'],
        ['exams=mri-knee&clinics=parramatta&from=12-03-2026', 'from'],
        ['exams=mri-knee,ct-brain&clinics=parramatta&from=2026-03-12', 'different modalities'],
        ['exams=mri-cardiac&clinics=parramatta&from=2026-03-12', 'booking request'],
        ['exams=mri-knee&clinics=atlantis&from=2026-03-12', 'atlantis'],
        ['exams=&clinics=parramatta&from=2026-03-12', 'exams'],
      ];
      for (const [query, expected] of cases) {
        const response = await server.app.inject({ method: 'GET', url: `/api/booking/availability?${query}` });
        expect(response.statusCode, query).toBe(400);
        const body = ApiErrorBodySchema.parse(response.json());
        expect(JSON.stringify(body), query).toContain(expected);
      }
    });

    it('GET /api/booking/availability/month flags the days with a free time', async () => {
      const response = await server.app.inject({
        method: 'GET',
        url: '/api/booking/availability/month?exams=mri-knee&clinics=parramatta,liverpool&month=2026-03',
      });
      const { days } = MonthResponseSchema.parse(response.json());
      expect(days).toHaveLength(31);
      const available = new Map(days.map((day) => [day.date, day.available]));
      expect(available.get('2026-03-09')).toBe(false); // the past
      expect(available.get('2026-03-12')).toBe(true);
      expect(available.get('2026-03-15')).toBe(false); // Sunday
    });
  });
});
