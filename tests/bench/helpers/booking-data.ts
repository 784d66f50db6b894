// Reference data for the booking benchmark: 50 clinics x 3 resources open 07:00-19:00, 90 days,
// about 60 % booked (a smoke run: 3 clinics, 14 days). A seeded PRNG makes every run and both
// engines measure the same schedule.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../../src-server/db/connection';
import { addDays, localDate, zonedTimeToInstant } from '../../../src-server/platform/time-zone';
import { seededRandom } from '../../../src-server/platform/seeded-random';
import { sized } from './scale';

const CLINICS = sized(50, 3);
const DAYS = sized(90, 14);
const OPEN = 7 * 60;
const CLOSE = 19 * 60;
export const DURATIONS = [10, 20, 30, 45, 60] as const;
export const MODALITIES = ['CT', 'MR', 'US'] as const;
const ZONES = ['Australia/Sydney', 'Australia/Brisbane', 'Australia/Melbourne'] as const;
const TARGET_BOOKED = 0.6;

export interface BenchData {
  clinicSlugs: string[];
  appointments: number;
  bookedShare: number;
}

export function examSlug(modality: string, minutes: number): string {
  return `bench-${modality.toLowerCase()}-${minutes}`;
}

/** How much to build: the booking benchmark's defaults, or more (booking-10x.bench.ts: 500 clinics). */
export interface BenchSize {
  clinics: number;
  days: number;
  /** Appointments per unnest() insert. */
  batchRows: number;
}

const DEFAULT_SIZE: BenchSize = { clinics: CLINICS, days: DAYS, batchRows: 5000 };

/** Clinics, resources, exams and ~180k appointments (by default), written in large unnest() batches. */
export async function generate(db: Queryable, now: Date, size: BenchSize = DEFAULT_SIZE): Promise<BenchData> {
  const random = seededRandom(20261122);
  const [region] = await db.query<{ id: string }>(`insert into region (slug, name) values ('bench', 'Bench') returning id::text as id`);
  const modalityIds = new Map<string, string>();
  for (const code of MODALITIES) {
    const [row] = await db.query<{ id: string }>('select id::text as id from modality where code = $1', [code]);
    modalityIds.set(code, row?.id ?? '');
    for (const minutes of DURATIONS) {
      await db.query(
        `insert into exam (slug, exam_code, name, modality_id, duration_minutes, referral_required, enquiry_only)
         values ($1, $2, $3, $4, $5, false, false)`,
        [examSlug(code, minutes), `BENCH${code}${minutes}`, `Bench ${code} ${minutes} min`, row?.id, minutes],
      );
    }
  }
  const examIds = new Map(
    (await db.query<{ slug: string; id: string }>(`select slug, id::text as id from exam where slug like 'bench-%'`)).map((row) => [
      row.slug,
      row.id,
    ]),
  );
  const [patientRow] = await db.query<{ id: string }>(
    `insert into patient (first_name, last_name, date_of_birth) values ('Bench', 'Patient', '1980-01-01') returning id::text as id`,
  );
  const patientId = patientRow?.id ?? '';

  const clinicSlugs: string[] = [];
  const resources: Array<{ id: string; clinicId: string; modality: string; timeZone: string }> = [];
  for (let index = 0; index < size.clinics; index++) {
    const slug = `bench-clinic-${String(index + 1).padStart(2, '0')}`;
    const timeZone = ZONES[index % ZONES.length] ?? 'Australia/Sydney';
    const [clinic] = await db.query<{ id: string }>(
      `insert into clinic (slug, region_id, name, street, suburb, state, postcode, phone, latitude, longitude, time_zone, position)
       values ($1, $2, $3, '1 Bench Street', 'Benchville', 'NSW', '2000', '02 5550 0000', $4, $5, $6, $7) returning id::text as id`,
      [slug, region?.id, `Bench clinic ${index + 1}`, -33.8 - index * 0.01, 151.2 + index * 0.01, timeZone, 100 + index],
    );
    const clinicId = clinic?.id ?? '';
    clinicSlugs.push(slug);
    for (let weekday = 1; weekday <= 7; weekday++) {
      await db.query(`insert into clinic_opening_hours (clinic_id, weekday, opens, closes) values ($1, $2, '07:00', '19:00')`, [
        clinicId,
        weekday,
      ]);
    }
    for (const modality of MODALITIES) {
      const [resource] = await db.query<{ id: string }>(
        'insert into resource (clinic_id, code, name, modality_id) values ($1, $2, $3, $4) returning id::text as id',
        [clinicId, `${modality}1`, `${modality} room`, modalityIds.get(modality)],
      );
      resources.push({ id: resource?.id ?? '', clinicId, modality, timeZone });
    }
  }

  // Fill each resource-day: book a random exam, or leave a gap, until closing; gaps are sized so
  // that about 60 % of the opening time ends up booked.
  let batch: Array<[string, string, string, string, number, number]> = [];
  let total = 0;
  let bookedMinutes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    await db.query(
      `insert into appointment (booking_key, patient_id, exam_id, clinic_id, resource_id, status, during)
       select b.key, $1::uuid, b.exam_id, b.clinic_id, b.resource_id, 'BOOKED',
              tstzrange(to_timestamp(b.starts / 1000.0), to_timestamp(b.ends / 1000.0), '[)')
         from unnest($2::text[], $3::uuid[], $4::uuid[], $5::uuid[], $6::float8[], $7::float8[])
              as b(key, exam_id, clinic_id, resource_id, starts, ends)`,
      [
        patientId,
        `{${batch.map((row) => row[0]).join(',')}}`,
        `{${batch.map((row) => row[1]).join(',')}}`,
        `{${batch.map((row) => row[2]).join(',')}}`,
        `{${batch.map((row) => row[3]).join(',')}}`,
        `{${batch.map((row) => row[4]).join(',')}}`,
        `{${batch.map((row) => row[5]).join(',')}}`,
      ],
    );
    batch = [];
  };
  // Booked share = p*examMean / (p*examMean + (1-p)*gapMean), solved for p.
  const examMean = DURATIONS.reduce((sum, minutes) => sum + minutes, 0) / DURATIONS.length;
  const gapMean = 12.5;
  const bookProbability = (TARGET_BOOKED * gapMean) / (examMean * (1 - TARGET_BOOKED) + TARGET_BOOKED * gapMean);
  for (const resource of resources) {
    const today = localDate(now, resource.timeZone);
    for (let day = 0; day < size.days; day++) {
      const date = addDays(today, day);
      const dayStart = zonedTimeToInstant(date, '00:00', resource.timeZone).getTime();
      let minute = OPEN;
      while (minute < CLOSE) {
        if (random() < bookProbability) {
          const duration = DURATIONS[Math.floor(random() * DURATIONS.length)] ?? 30;
          if (minute + duration > CLOSE) break;
          const start = dayStart + minute * 60_000;
          batch.push([
            `bench${randomBytes(12).toString('hex')}`,
            examIds.get(examSlug(resource.modality, duration)) ?? '',
            resource.clinicId,
            resource.id,
            start,
            start + duration * 60_000,
          ]);
          total += 1;
          bookedMinutes += duration;
          minute += duration;
        } else {
          minute += 5 * (1 + Math.floor(random() * 4));
        }
        if (batch.length >= size.batchRows) await flush();
      }
    }
  }
  await flush();
  return { clinicSlugs, appointments: total, bookedShare: bookedMinutes / (resources.length * size.days * (CLOSE - OPEN)) };
}
