import type { Bundle, Schedule, Slot } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { expectValidR4 } from './helpers/r4-validation';
import { useFhirServer } from './helpers/fhir-server';
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
  });
});
