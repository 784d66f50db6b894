import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_IMAGES } from '@contract/api/config';
import type { Database } from '../../../../src-server/db/connection';
import { DEMO_PROVIDER_DIR, DemoProviderError, loadDemoProvider } from '../../../../src-server/db/seed/demo-provider';
import { seedDemoProvider } from '../../../../src-server/db/seed/seed';
import { createTestClock } from '../../../../src-server/platform/clock';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

async function count(db: Database, table: string): Promise<number> {
  const rows = await db.query<{ count: number }>(`select count(*)::int as count from ${table}`);
  return rows[0]?.count ?? -1;
}

const COUNTED_TABLES = [
  'provider',
  'translation_overlay',
  'application_image',
  'region',
  'clinic',
  'clinic_opening_hours',
  'resource',
  'modality',
  'body_part',
  'exam',
  'exam_body_part',
  'document_type',
  'referring_doctor',
  'patient',
  'appointment',
];

async function counts(db: Database): Promise<Record<string, number>> {
  const entries = await Promise.all(COUNTED_TABLES.map(async (table) => [table, await count(db, table)] as const));
  return Object.fromEntries(entries);
}

/** A copy of the real demo provider to break on purpose. */
function demoCopy(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-demo-'));
  cpSync(DEMO_PROVIDER_DIR, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function editJson(path: string, edit: (value: unknown) => void): void {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  edit(value);
  writeFileSync(path, JSON.stringify(value));
}

function isObjectArray(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null);
}

// A Monday in March: Sydney is on daylight time (UTC+11), Brisbane never is (UTC+10).
const NOW = '2026-03-09T03:00:00.000Z';

describe.each(backends())('seedDemoProvider on %s', (backend) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(backend, 'migrated');
  });
  afterAll(() => test.destroy());

  it('seeds the real demo provider on first start with every part of issue 2', async () => {
    const result = await seedDemoProvider(test.db, { clock: createTestClock(NOW) });
    expect(result.seeded).toBe(true);
    const seeded = await counts(test.db);
    expect(seeded.provider).toBe(1);
    expect(seeded.clinic).toBeGreaterThanOrEqual(6);
    expect(seeded.region).toBeGreaterThanOrEqual(2);
    expect(seeded.exam).toBeGreaterThanOrEqual(25);
    expect(seeded.modality).toBe(8);
    expect(seeded.application_image).toBe(APPLICATION_IMAGES.length);
    expect(seeded.document_type).toBeGreaterThan(0);
    expect(seeded.referring_doctor).toBeGreaterThan(0);
    expect(seeded.appointment).toBeGreaterThanOrEqual(5);
    expect(seeded.resource).toBeGreaterThanOrEqual(seeded.clinic ?? 0);
    const statuses = await test.db.query<{ status: string }>('select distinct status from appointment');
    expect(statuses.length).toBeGreaterThanOrEqual(4);
    expect(result.bookingKeys.length).toBeGreaterThan(0);
  });

  it('keeps the booking keys from the file', async () => {
    const demo = await loadDemoProvider();
    const rows = await test.db.query<{ booking_key: string }>('select booking_key from appointment order by booking_key');
    expect(rows.map((row) => row.booking_key)).toEqual(demo.appointments.map((appointment) => appointment.bookingKey).sort());
  });

  it("places each appointment at its start time on the clinic's wall clock, dayOffset days after the clock's date", async () => {
    const demo = await loadDemoProvider();
    const rows = await test.db.query<{ booking_key: string; local_day: string; local_time: string; minutes: number }>(
      `select a.booking_key,
              to_char(lower(a.during) at time zone c.time_zone, 'YYYY-MM-DD') as local_day,
              to_char(lower(a.during) at time zone c.time_zone, 'HH24:MI') as local_time,
              (extract(epoch from upper(a.during) - lower(a.during)) / 60)::int as minutes
         from appointment a join clinic c on c.id = a.clinic_id`,
    );
    const byKey = new Map(rows.map((row) => [row.booking_key, row]));
    const durations = new Map(demo.exams.exams.map((exam) => [exam.slug, exam.durationMinutes]));
    for (const appointment of demo.appointments) {
      const row = byKey.get(appointment.bookingKey);
      // NOW is 14:00 on 2026-03-09 in Sydney and 13:00 in Brisbane: the same local date.
      const expectedDay = new Date(Date.UTC(2026, 2, 9 + appointment.dayOffset)).toISOString().slice(0, 10);
      expect(row, appointment.bookingKey).toMatchObject({
        local_day: expectedDay,
        local_time: appointment.startTime,
        minutes: durations.get(appointment.examSlug),
      });
    }
  });

  it('stores images with the content type found in their bytes', async () => {
    const rows = await test.db.query<{ name: string; content_type: string; head: string; ok: boolean }>(
      `select name, content_type, encode(substring(content from 1 for 8), 'hex') as head,
              sha256 = encode(sha256(content), 'hex') as ok
         from application_image order by name`,
    );
    expect(rows.map((row) => row.name).sort()).toEqual([...APPLICATION_IMAGES].sort());
    for (const row of rows) {
      expect(row).toMatchObject({ content_type: 'image/png', head: '89504e470d0a1a0a', ok: true });
    }
  });

  it('does not seed again on a second start (idempotent)', async () => {
    const before = await counts(test.db);
    const again = await seedDemoProvider(test.db, { clock: createTestClock('2026-04-01T00:00:00Z') });
    expect(again.seeded).toBe(false);
    expect(await counts(test.db)).toEqual(before);
  });

  it('does not read the files again once seeded, so a later broken edit cannot stop a start', async () => {
    const copy = demoCopy();
    try {
      writeFileSync(join(copy.dir, 'clinics.json'), '{ not json');
      await expect(seedDemoProvider(test.db, { clock: createTestClock(NOW), directory: copy.dir })).resolves.toMatchObject({
        seeded: false,
      });
    } finally {
      copy.remove();
    }
  });
});

describe.each(backends())('seedDemoProvider with a broken demo provider on %s', (backend) => {
  let test: TestDatabase;
  let copy: { dir: string; remove(): void };
  beforeAll(async () => {
    test = await createTestDatabase(backend, 'migrated');
  });
  afterAll(() => test.destroy());

  it('names the file and the field, and writes nothing', async () => {
    copy = demoCopy();
    try {
      editJson(join(copy.dir, 'clinics.json'), (clinics) => {
        if (!isObjectArray(clinics) || !clinics[1]) throw new Error('unexpected clinics.json');
        clinics[1].latitude = 'north';
      });
      const error = await seedDemoProvider(test.db, { clock: createTestClock(NOW), directory: copy.dir }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DemoProviderError);
      expect(String(error)).toMatch(/clinics\.json: \[1\]\.latitude: /);
      expect(await count(test.db, 'provider')).toBe(0);
      expect(await count(test.db, 'clinic')).toBe(0);
    } finally {
      copy.remove();
    }
  });

  it('reports broken references between files and an image that is not what its name says', async () => {
    copy = demoCopy();
    try {
      editJson(join(copy.dir, 'appointments.json'), (appointments) => {
        if (!isObjectArray(appointments) || !appointments[0]) throw new Error('unexpected appointments.json');
        appointments[0].clinicSlug = 'atlantis';
      });
      editJson(join(copy.dir, 'clinics.json'), (clinics) => {
        if (!isObjectArray(clinics) || !clinics[0]) throw new Error('unexpected clinics.json');
        clinics[0].timeZone = 'Mars/Olympus_Mons';
      });
      writeFileSync(join(copy.dir, 'images', 'logo.png'), '<html><script>alert(1)</script></html>');
      const error = await loadDemoProvider(copy.dir).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DemoProviderError);
      const problems = error instanceof DemoProviderError ? error.problems : [];
      expect(problems).toEqual(
        expect.arrayContaining([
          "appointments.json: [0].clinicSlug: unknown clinic 'atlantis'",
          "clinics.json: [0].timeZone: unknown time zone 'Mars/Olympus_Mons'",
          expect.stringMatching(/^images\/logo\.png: not a PNG/),
        ]),
      );
      expect(await count(test.db, 'provider')).toBe(0);
    } finally {
      copy.remove();
    }
  });

  it('rolls everything back when an insert fails half way (two live bookings on one slot)', async () => {
    copy = demoCopy();
    try {
      editJson(join(copy.dir, 'appointments.json'), (appointments) => {
        if (!isObjectArray(appointments) || !appointments[0]) throw new Error('unexpected appointments.json');
        appointments.push({ ...appointments[0], bookingKey: 'Zz'.repeat(11), status: 'BOOKED' });
        appointments[0].status = 'BOOKED';
      });
      const error = await seedDemoProvider(test.db, { clock: createTestClock(NOW), directory: copy.dir }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error instanceof Error && 'code' in error ? error.code : null).toBe('23P01');
      expect(await counts(test.db)).toEqual(Object.fromEntries(COUNTED_TABLES.map((table) => [table, 0])));
    } finally {
      copy.remove();
    }
  });
});
