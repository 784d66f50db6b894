import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { book, hold, overlaps, patient, slotsOn, sydney } from './booking-test-kit';

/**
 * Property: whatever mix of concurrent holds and bookings of overlapping times and different
 * lengths arrives at one resource, no two live ones overlap, every answer is 201 or a clear 409,
 * and the next availability answer offers none of the times taken.
 */

// Bondi Junction has one CT; CT exams last 10, 15 or 30 minutes.
const CLINIC = 'bondi-junction';
const DATE = '2026-03-19';
const CT_EXAMS = ['ct-brain', 'ct-chest', 'ct-abdomen-pelvis', 'ct-lumbar-spine', 'ct-sinuses'] as const;
const QUARTERS = Array.from(
  { length: 16 },
  (_, index) => `${String(8 + Math.floor(index / 4)).padStart(2, '0')}:${String((index % 4) * 15).padStart(2, '0')}`,
);

const requestArbitrary = fc.record({
  kind: fc.constantFrom('book', 'hold'),
  time: fc.constantFrom(...QUARTERS),
  exams: fc.uniqueArray(fc.constantFrom(...CT_EXAMS), { minLength: 1, maxLength: 3 }),
});

describe.each(backends())('booking contention property on %s', (backend) => {
  const server = useTestApp({ backend });

  it('random concurrent holds and bookings of overlapping durations never overlap', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(requestArbitrary, { minLength: 2, maxLength: 14 }), async (requests) => {
        // Each run starts from an empty day (deleted behind the server's back: it re-syncs).
        await server.db.query(`delete from appointment where clinic_id = (select id from clinic where slug = $1)`, [CLINIC]);
        const responses = await Promise.all(
          requests.map((request) => {
            const body = { exams: request.exams, clinicSlug: CLINIC, startsAt: sydney(DATE, request.time) };
            return request.kind === 'book' ? book(server.app, { ...body, patient: patient() }) : hold(server.app, body);
          }),
        );
        for (const response of responses) {
          expect([201, 409]).toContain(response.statusCode);
          if (response.statusCode === 409) expect(response.json().code).toBe('slot_taken');
        }
        expect(responses.some((response) => response.statusCode === 201)).toBe(true);
        expect(await overlaps(server.db)).toBe(0);
        // What was taken is not offered any more.
        const offered = new Set((await slotsOn(server.app, 'ct-sinuses', CLINIC, DATE)).map((slot) => slot.startsAt));
        const taken = await server.db.query<{ starts: string }>(
          `select to_char(lower(during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"') as starts from appointment
            where clinic_id = (select id from clinic where slug = $1)`,
          [CLINIC],
        );
        for (const row of taken) expect(offered.has(row.starts)).toBe(false);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
