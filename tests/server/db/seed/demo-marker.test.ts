import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROVIDER_DIR } from '../../../../src-server/db/seed/demo-provider';
import { DEMO_APPOINTMENT_KEY, DEMO_PROFILE, liveDemoAppointmentKey, servesDemoProvider } from '../../../../src-server/db/seed/demo-marker';
import { backends } from '../../helpers/database';
import { useTestDatabase } from '../../helpers/test-app';

describe('the demo marker and the demo provider files', () => {
  it('the demo provider calls itself a demo, not production', () => {
    const provider = JSON.parse(readFileSync(join(DEMO_PROVIDER_DIR, 'provider.json'), 'utf8')) as {
      environment: { profiles: string[]; production: boolean };
    };
    expect(provider.environment.profiles).toContain(DEMO_PROFILE);
    expect(provider.environment.production).toBe(false);
  });

  it('the demo appointment is a booked appointment in the demo files', () => {
    const appointments = JSON.parse(readFileSync(join(DEMO_PROVIDER_DIR, 'appointments.json'), 'utf8')) as Array<{
      bookingKey: string;
      status: string;
      dayOffset: number;
    }>;
    const demo = appointments.find((appointment) => appointment.bookingKey === DEMO_APPOINTMENT_KEY);
    expect(demo).toMatchObject({ status: 'BOOKED' });
    expect(demo?.dayOffset).toBeGreaterThan(0);
  });
});

describe.each(backends())('servesDemoProvider on %s', (backend) => {
  const seeded = useTestDatabase({ backend });
  const migrated = useTestDatabase({ backend, state: 'migrated' });
  const empty = useTestDatabase({ backend, state: 'empty' });

  it('is true for the seeded demo provider, with its live demo appointment', async () => {
    expect(await servesDemoProvider(seeded.db)).toBe(true);
    expect(await liveDemoAppointmentKey(seeded.db)).toBe(DEMO_APPOINTMENT_KEY);
  });

  it('is false with no provider, or no schema at all', async () => {
    expect(await servesDemoProvider(migrated.db)).toBe(false);
    expect(await servesDemoProvider(empty.db)).toBe(false);
    expect(await liveDemoAppointmentKey(empty.db)).toBeNull();
  });
});
