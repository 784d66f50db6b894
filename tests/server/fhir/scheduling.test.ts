import type { Bundle, Schedule, Slot } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { expectValidR4 } from './helpers/r4-validation';
import { useFhirServer } from './helpers/fhir-server';
import { hold } from '../modules/booking/booking-test-kit';
import { backends } from '../helpers/database';

// Schedules (an exam bookable at a clinic) and their free Slots, through fhir-kit-client over
// real HTTP with a demo-provider token: the slots are the booking pages' free times.

const entries = <T>(bundle: Bundle): T[] => (bundle.entry ?? []).map((entry) => entry.resource as T);
describe.each(backends())('on %s', (backend) => {
  const fixture = useFhirServer(backend);

  describe('Schedule and Slot through fhir-kit-client', () => {
    it('finds the schedules of a clinic, and each schedule’s free slots in time order', async () => {
      const client = fixture.fhirClient(await fixture.token('system/Location.rs system/Schedule.rs system/Slot.rs'));
      const locations = (await client.search({ resourceType: 'Location', searchParams: { _count: 1 } })) as unknown as Bundle;
      const clinicId = entries<{ id: string }>(locations)[0]?.id ?? '';
      const schedules = (await client.search({
        resourceType: 'Schedule',
        searchParams: { actor: `Location/${clinicId}`, _count: 3 },
      })) as unknown as Bundle;
      expectValidR4(schedules);
      const found = entries<Schedule>(schedules);
      expect(found.length).toBeGreaterThan(0);
      for (const schedule of found) expect(schedule.actor.map((actor) => actor.reference)).toContain(`Location/${clinicId}`);
      const schedule = found[0] as Schedule;
      expect(await client.read({ resourceType: 'Schedule', id: schedule.id ?? '' })).toEqual(schedule);
      // Both actors named: that exam at that clinic, and only it.
      const exam = schedule.actor.find((actor) => actor.reference?.startsWith('HealthcareService/'))?.reference ?? '';
      const both = (await client.search({
        resourceType: 'Schedule',
        searchParams: { actor: [`Location/${clinicId}`, exam] },
      })) as unknown as Bundle;
      expect(entries<Schedule>(both).map((found) => found.id)).toEqual([schedule.id]);

      const slots = (await client.search({
        resourceType: 'Slot',
        searchParams: { schedule: `Schedule/${schedule.id ?? ''}`, status: 'free', _count: 5 },
      })) as unknown as Bundle;
      expectValidR4(slots);
      const free = entries<Slot>(slots);
      expect(free).toHaveLength(5);
      for (const slot of free) {
        expectValidR4(slot);
        expect(slot.schedule.reference).toBe(`Schedule/${schedule.id ?? ''}`);
      }
      const starts = free.map((slot) => slot.start);
      expect([...starts].sort()).toEqual(starts);
      expect(await client.read({ resourceType: 'Slot', id: free[0]?.id ?? '' })).toEqual(free[0]);

      // The next page goes on after the last slot, and a start range narrows the search.
      const next = (await client.nextPage({ bundle: slots as never })) as unknown as Bundle;
      expect((entries<Slot>(next)[0]?.start ?? '') > (starts.at(-1) ?? '')).toBe(true);
      const from = free[2]?.start ?? '';
      const ranged = (await client.search({
        resourceType: 'Slot',
        searchParams: { schedule: schedule.id ?? '', start: [`ge${from}`, `lt${free[4]?.start ?? ''}`] },
      })) as unknown as Bundle;
      expect(entries<Slot>(ranged).map((slot) => slot.start)).toEqual(starts.slice(2, 4));
    });

    it('pages slots stably while times are taken between pages: none repeats, a taken one is gone, none is skipped', async () => {
      const client = fixture.fhirClient(await fixture.token('system/Schedule.rs system/Slot.rs'));
      const [clinic] = await fixture.server.db.query<{ id: string }>(`select id::text as id from clinic where slug = 'chatswood'`);
      const [exam] = await fixture.server.db.query<{ id: string }>(`select id::text as id from exam where slug = 'mri-knee'`);
      // Both actors named: a clinic's schedules fill several pages, in an order of ids that differs
      // from one database to the next.
      const schedules = (await client.search({
        resourceType: 'Schedule',
        searchParams: { actor: [`Location/${clinic?.id ?? ''}`, `HealthcareService/${exam?.id ?? ''}`] },
      })) as unknown as Bundle;
      const [schedule] = entries<Schedule>(schedules);
      expect(schedule?.actor.map((actor) => actor.reference)).toContain(`HealthcareService/${exam?.id ?? ''}`);
      const search = { schedule: `Schedule/${schedule?.id ?? ''}`, _count: 3 };
      const first = (await client.search({ resourceType: 'Slot', searchParams: search })) as unknown as Bundle;
      const firstStarts = entries<Slot>(first).map((slot) => slot.start);
      const ahead = (await client.search({
        resourceType: 'Slot',
        searchParams: { ...search, _count: 4, start: `gt${firstStarts.at(-1) ?? ''}` },
      })) as unknown as Bundle;
      const aheadStarts = entries<Slot>(ahead).map((slot) => slot.start);
      // Someone takes a time of the page already read and the first of the next page.
      for (const startsAt of [firstStarts[0], aheadStarts[0]]) {
        const held = await hold(fixture.server.app, { exams: ['mri-knee'], clinicSlug: 'chatswood', startsAt });
        expect(held.statusCode, held.body).toBe(201);
      }
      const second = (await client.nextPage({ bundle: first as never })) as unknown as Bundle;
      expectValidR4(second);
      const secondStarts = entries<Slot>(second).map((slot) => slot.start);
      // The page goes on right after the last start already read, with the times free now (a hold
      // also takes the grid times its exam would overlap).
      const freeNow = (await client.search({
        resourceType: 'Slot',
        searchParams: { ...search, start: `gt${firstStarts.at(-1) ?? ''}` },
      })) as unknown as Bundle;
      expect(secondStarts).toEqual(entries<Slot>(freeNow).map((slot) => slot.start));
      expect(secondStarts).toHaveLength(3);
      expect(secondStarts).not.toContain(aheadStarts[0]);
      for (const start of secondStarts) expect(start > (firstStarts.at(-1) ?? '')).toBe(true);
    });
  });
});
