import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPLICATION_IMAGES } from '@contract/api/config';
import type { Database } from '../../../../src-server/db/connection';
import { DEMO_PROVIDER_DIR, DemoProviderError, loadDemoProvider } from '../../../../src-server/db/seed/demo-provider';
import { seedDemoProvider } from '../../../../src-server/db/seed/seed';
import { createTestClock } from '../../../../src-server/platform/clock';
import { backends } from '../../helpers/database';
import { useTestDatabase } from '../../helpers/test-app';

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

/** Runs `use` on a copy of the real demo provider to break on purpose, and removes the copy after. */
async function withDemoCopy(use: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-demo-'));
  cpSync(DEMO_PROVIDER_DIR, dir, { recursive: true });
  try {
    await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function editJson(path: string, edit: (value: unknown) => void): void {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  edit(value);
  writeFileSync(path, JSON.stringify(value));
}

type Item = Record<string, unknown>;

/**
 * Edits the list of objects in one demo file: the file itself, or its field `key`. `at(index)`
 * is the item there; a file not shaped as the test expects fails the test before anything else.
 */
function editList(dir: string, file: string, key: string | null, edit: (at: (index: number) => Item, items: Item[]) => void): void {
  editJson(join(dir, file), (value) => {
    const items = key === null ? value : (value as Record<string, unknown>)[key];
    if (!Array.isArray(items) || !items.every((item) => typeof item === 'object' && item !== null)) throw new Error(`unexpected ${file}`);
    const list = items as Item[];
    edit((index) => {
      const item = list[index];
      if (item === undefined) throw new Error(`unexpected ${file}: no item ${index}`);
      return item;
    }, list);
  });
}

/** The problems loading the demo provider in `dir` reports (the test fails unless it refuses it). */
async function loadProblems(dir: string): Promise<string[]> {
  const error = await loadDemoProvider(dir).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(DemoProviderError);
  return error instanceof DemoProviderError ? error.problems : [];
}

// A Monday in March: Sydney is on daylight time (UTC+11), Brisbane never is (UTC+10).
const NOW = '2026-03-09T03:00:00.000Z';

describe.each(backends())('seedDemoProvider on %s', (backend) => {
  const test = useTestDatabase({ backend, state: 'migrated' });

  it('seeds the real demo provider on first start with its provider, regions, clinics, exams, resources and appointments', async () => {
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

  it("places each appointment at its start time on the clinic's wall clock, dayOffset days on, at the first day the clinic is open then", async () => {
    const demo = await loadDemoProvider();
    const rows = await test.db.query<{ booking_key: string; local_day: string; local_time: string; minutes: number }>(
      `select a.booking_key,
              to_char(lower(a.during) at time zone c.time_zone, 'YYYY-MM-DD') as local_day,
              to_char(lower(a.during) at time zone c.time_zone, 'HH24:MI') as local_time,
              (extract(epoch from upper(a.during) - lower(a.during)) / 60)::int as minutes
         from appointment a join clinic c on c.id = a.clinic_id`,
    );
    /** The clinic's stored hours cover [time, time + minutes) on that day, and it is not a closed date. */
    const openAt = async (clinicSlug: string, day: string, time: string, minutes: number): Promise<boolean> => {
      const [row] = await test.db.query<{ open: boolean }>(
        `select exists (
                  select 1 from clinic_opening_hours h join clinic c on c.id = h.clinic_id
                   where c.slug = $1 and h.weekday = extract(isodow from $2::date)
                     and h.opens <= $3::time and h.closes >= $3::time + make_interval(mins => $4))
                and not exists (select 1 from clinic_closed_date d join clinic c on c.id = d.clinic_id where c.slug = $1 and d.closed_on = $2::date)
                as open`,
        [clinicSlug, day, time, minutes],
      );
      return row?.open ?? false;
    };
    const byKey = new Map(rows.map((row) => [row.booking_key, row]));
    const durations = new Map(demo.exams.exams.map((exam) => [exam.slug, exam.durationMinutes]));
    let moved = 0;
    for (const appointment of demo.appointments) {
      const row = byKey.get(appointment.bookingKey);
      if (appointment.startsInMinutes !== undefined) continue; // the next test
      const minutes = durations.get(appointment.examSlug) ?? 0;
      expect(row, appointment.bookingKey).toMatchObject({ local_time: appointment.startTime, minutes });
      // NOW is 14:00 on 2026-03-09 in Sydney and 13:00 in Brisbane: the same local date.
      let day = new Date(Date.UTC(2026, 2, 9 + (appointment.dayOffset ?? 0))).toISOString().slice(0, 10);
      while (day < (row?.local_day ?? '')) {
        expect(
          await openAt(appointment.clinicSlug, day, appointment.startTime ?? '', minutes),
          `${appointment.bookingKey} skipped ${day}`,
        ).toBe(false);
        day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        moved += 1;
      }
      expect(row?.local_day, appointment.bookingKey).toBe(day);
      expect(await openAt(appointment.clinicSlug, day, appointment.startTime ?? '', minutes), appointment.bookingKey).toBe(true);
    }
    // The seed's date puts at least one demo appointment on a day its clinic is closed at that time.
    expect(moved).toBeGreaterThan(0);
  });

  it('places the check-in demo appointments startsInMinutes after the seed, rounded up to 5 minutes', async () => {
    const demo = await loadDemoProvider();
    const relative = demo.appointments.filter((appointment) => appointment.startsInMinutes !== undefined);
    expect(relative.map((appointment) => appointment.startsInMinutes)).toEqual([60, 20, 20, 35, 50, 65, 80, 95]);
    const starts: string[] = [];
    for (const appointment of relative) {
      const [row] = await test.db.query<{ starts: string }>(
        `select to_char(lower(during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as starts from appointment where booking_key = $1`,
        [appointment.bookingKey],
      );
      starts.push(row?.starts ?? '');
    }
    // NOW is 03:00 UTC; 60, 20, 35, … minutes later are already on 5-minute steps.
    expect(starts).toEqual(['04:00', '03:20', '03:20', '03:35', '03:50', '04:05', '04:20', '04:35'].map((time) => `2026-03-09T${time}`));
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

  it('seeds the self-service rules, cancel reasons, consent forms and booking requests with their referral files', async () => {
    const demo = await loadDemoProvider();
    const [settings] = await test.db.query<{ prior_minutes: number }>('select prior_minutes from self_service_settings');
    expect(settings?.prior_minutes).toBe(demo.selfService.settings.priorMinutes);
    // The provider's reminder times and quiet hours (docs/rules/reminders.md), not the migration's defaults.
    const [reminders] = await test.db.query<{ lead_hours: number[]; quiet_start: string; quiet_end: string }>(
      `select lead_hours, to_char(quiet_start, 'HH24:MI') as quiet_start, to_char(quiet_end, 'HH24:MI') as quiet_end from reminder_settings`,
    );
    expect(reminders).toEqual({
      lead_hours: demo.selfService.reminders?.leadHours,
      quiet_start: demo.selfService.reminders?.quietHours.start,
      quiet_end: demo.selfService.reminders?.quietHours.end,
    });
    expect(reminders?.quiet_start).toBe('20:00');
    const reasons = await test.db.query<{ label: string }>('select label from cancel_reason order by position');
    expect(reasons.map((row) => row.label)).toEqual(demo.selfService.cancelReasons);
    const forms = await test.db.query<{ slug: string; modality: string | null }>(
      'select f.slug, m.code as modality from consent_form f left join modality m on m.id = f.modality_id order by f.position',
    );
    expect(forms).toEqual(demo.selfService.consentForms.map((form) => ({ slug: form.slug, modality: form.modalityCode })));
    for (const request of demo.selfService.bookingRequests) {
      const rows = await test.db.query<{ exam: string; date_of_birth: string }>(
        `select e.slug as exam, p.date_of_birth::text as date_of_birth
           from booking_request r join exam e on e.id = r.exam_id join patient p on p.id = r.patient_id
          where r.booking_key = $1 order by e.slug`,
        [request.bookingKey],
      );
      expect(rows).toEqual([...request.examSlugs].sort().map((exam) => ({ exam, date_of_birth: request.patient.dateOfBirth })));
      const referrals = await test.db.query<{ file_name: string; ok: boolean }>(
        `select file_name, sha256 = encode(sha256(content), 'hex') as ok from booking_request_referral where booking_key = $1 order by file_name`,
        [request.bookingKey],
      );
      expect(referrals).toEqual([...request.referrals].sort().map((file_name) => ({ file_name, ok: true })));
    }
  });

  it('seeds the questionnaires with their modality and exam links and the autocomplete lists', async () => {
    const demo = await loadDemoProvider();
    const rows = await test.db.query<{ slug: string; type: string; modalities: string[]; exams: string[] }>(
      `select q.slug, q.type,
              coalesce((select array_agg(m.code order by m.code) from questionnaire_modality qm join modality m on m.id = qm.modality_id where qm.questionnaire_id = q.id), '{}') as modalities,
              coalesce((select array_agg(e.slug order by e.slug) from questionnaire_exam qe join exam e on e.id = qe.exam_id where qe.questionnaire_id = q.id), '{}') as exams
         from questionnaire q order by q.position`,
    );
    expect(rows).toEqual(
      (demo.questionnaires?.questionnaires ?? []).map((item) => ({
        slug: item.slug,
        type: item.type,
        modalities: [...item.modalityCodes].sort(),
        exams: [...item.examSlugs].sort(),
      })),
    );
    expect(rows.map((row) => row.slug)).toEqual(
      expect.arrayContaining([
        'mri-safety-screening',
        'ct-contrast',
        'xray-pregnancy-check',
        'pain-score-initial',
        'pain-score-final',
        'patient-feedback',
      ]),
    );
    expect(await count(test.db, 'questionnaire_lookup')).toBe(Object.values(demo.questionnaires?.lookups ?? {}).flat().length);
    const [settings] = await test.db.query<{ required: boolean }>('select required_before_booking as required from questionnaire_settings');
    expect(settings?.required).toBe(demo.questionnaires?.requiredBeforeBooking);
  });

  it('does not seed again on a second start (idempotent)', async () => {
    const before = await counts(test.db);
    const again = await seedDemoProvider(test.db, { clock: createTestClock('2026-04-01T00:00:00Z') });
    expect(again).toEqual({ seeded: false, bookingKeys: [] });
    expect(await counts(test.db)).toEqual(before);
  });

  it('does not read the files again once seeded, so a later broken edit cannot stop a start', async () => {
    await withDemoCopy(async (dir) => {
      writeFileSync(join(dir, 'clinics.json'), '{ not json');
      await expect(seedDemoProvider(test.db, { clock: createTestClock(NOW), directory: dir })).resolves.toMatchObject({ seeded: false });
    });
  });
});

describe.each(backends())('seedDemoProvider with a broken demo provider on %s', (backend) => {
  const test = useTestDatabase({ backend, state: 'migrated' });

  it('names the file and the field, and writes nothing', async () => {
    await withDemoCopy(async (dir) => {
      editList(dir, 'clinics.json', null, (at) => {
        at(1).latitude = 'north';
      });
      const error = await seedDemoProvider(test.db, { clock: createTestClock(NOW), directory: dir }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DemoProviderError);
      expect(String(error)).toMatch(/clinics\.json: \[1\]\.latitude: /);
      expect(await count(test.db, 'provider')).toBe(0);
      expect(await count(test.db, 'clinic')).toBe(0);
    });
  });

  it('reports questionnaires with unknown links, lists, document types or conditions', async () => {
    await withDemoCopy(async (dir) => {
      editList(dir, 'questionnaires.json', 'questionnaires', (at) => {
        at(0).modalityCodes = ['ZZ'];
        at(1).examSlugs = ['no-such-exam'];
        at(1).outcomes = [
          { type: 'SET_DOCUMENT_TYPE', condition: "{a} = 'b'", result: 'NOPE' },
          { type: 'DENY_BOOKING', condition: '{a} = = ', result: 'x' },
        ];
      });
      expect(await loadProblems(dir)).toEqual(
        expect.arrayContaining([
          "questionnaires.json: questionnaires[0].modalityCodes: unknown modality 'ZZ'",
          "questionnaires.json: questionnaires[1].examSlugs: unknown exam 'no-such-exam'",
          "questionnaires.json: questionnaires[1].outcomes[0].result: unknown document type 'NOPE'",
          'questionnaires.json: questionnaires[1].outcomes[1].condition: not a valid expression',
        ]),
      );
    });
  });

  it('reports broken references between files and an image that is not what its name says', async () => {
    await withDemoCopy(async (dir) => {
      editList(dir, 'appointments.json', null, (at) => {
        at(0).clinicSlug = 'atlantis';
      });
      editList(dir, 'clinics.json', null, (at) => {
        at(0).timeZone = 'Mars/Olympus_Mons';
      });
      writeFileSync(join(dir, 'images', 'logo.png'), '<html><script>alert(1)</script></html>');
      writeFileSync(join(dir, 'referrals', 'referral-biopsy.pdf'), '<html>not a pdf</html>');
      editList(dir, 'self-service.json', 'bookingRequests', (at) => {
        at(0).examSlugs = ['mri-knee'];
      });
      expect(await loadProblems(dir)).toEqual(
        expect.arrayContaining([
          "appointments.json: [0].clinicSlug: unknown clinic 'atlantis'",
          "clinics.json: [0].timeZone: unknown time zone 'Mars/Olympus_Mons'",
          expect.stringMatching(/^images\/logo\.png: not a PNG/),
          "self-service.json: bookingRequests[0].examSlugs[0]: 'mri-knee' is bookable online, not a booking-request exam",
          'referrals/referral-biopsy.pdf: not a PDF, PNG or JPEG (checked by its bytes)',
        ]),
      );
      expect(await count(test.db, 'provider')).toBe(0);
    });
  });

  it('rolls everything back when an insert fails half way (two live bookings on one slot)', async () => {
    await withDemoCopy(async (dir) => {
      editList(dir, 'appointments.json', null, (at, appointments) => {
        appointments.push({ ...at(0), bookingKey: 'Zz'.repeat(11), status: 'BOOKED' });
        at(0).status = 'BOOKED';
      });
      const error = await seedDemoProvider(test.db, { clock: createTestClock(NOW), directory: dir }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error instanceof Error && 'code' in error ? error.code : null).toBe('23P01');
      expect(await counts(test.db)).toEqual(Object.fromEntries(COUNTED_TABLES.map((table) => [table, 0])));
    });
  });

  it("seeds the provider's rule that booking-time questionnaires must be answered before booking", async () => {
    await withDemoCopy(async (dir) => {
      editJson(join(dir, 'questionnaires.json'), (file) => {
        (file as { requiredBeforeBooking?: boolean }).requiredBeforeBooking = true;
      });
      await expect(seedDemoProvider(test.db, { clock: createTestClock(NOW), directory: dir })).resolves.toMatchObject({ seeded: true });
      const [settings] = await test.db.query<{ required: boolean }>(
        'select required_before_booking as required from questionnaire_settings',
      );
      expect(settings?.required).toBe(true);
    });
  });
});
