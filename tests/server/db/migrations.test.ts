import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../../src-server/db/connection';
import { migrate, MigrationError, MIGRATIONS_DIR, readMigrations } from '../../../src-server/db/migrate';
import { backends, createPostgresDatabase, dropPostgresDatabase, postgresUrlFor } from '../helpers/database';
import { useTestDatabase } from '../helpers/test-app';

const EXPECTED_TABLES = [
  'address_window_hit',
  'appointment',
  'application_image',
  'audit_log',
  'body_part',
  'clinic',
  'clinic_closed_date',
  'clinic_opening_hours',
  'document_type',
  'exam',
  'exam_body_part',
  'exam_document_type',
  'exam_search_synonym',
  'modality',
  'outbox_mail',
  'patient',
  'provider',
  'referring_doctor',
  'region',
  'resource',
  'resource_break',
  'schema_migrations',
  'translation_overlay',
  // 0002_booking
  'availability_change',
  'availability_version',
  'booking_request',
  'booking_settings',
  'idempotency_record',
  'postcode_location',
  'public_holiday',
  'resource_opening_hours',
  'walk_in_exam',
  // 0004_patient_access
  'outbox_sms',
  'patient_access_failure',
  'patient_access_secret',
  'patient_otp',
  'patient_session',
  // 0005_self_service
  'appointment_change',
  'booking_request_referral',
  'cancel_reason',
  'consent_form',
  'consent_signature',
  'details_change_request',
  'self_service_settings',
  // 0006_questionnaires
  'questionnaire',
  'questionnaire_answer',
  'questionnaire_booking_key',
  'questionnaire_exam',
  'questionnaire_lookup',
  'questionnaire_modality',
  'questionnaire_settings',
  // 0007_booking_outcomes
  'booking_outcome',
  // 0008_captcha
  'captcha_solution_used',
  // 0009_booking_limits
  'booking_limit_counter',
  // 0010_staff_sessions
  'staff_session',
  // 0012_attachments
  'attachment',
  'attachment_settings',
  // 0014_check_in
  'check_in_settings',
  'check_in',
  'ris_handoff',
  // 0015_kiosks
  'kiosk',
  'kiosk_enrollment_failure',
  'kiosk_enrollment_code',
  'kiosk_identity_attempt',
  // 0018_results
  'result_report',
  // 0020_result_shares
  'result_share',
  'result_share_access',
  // 0024_referrer_feedback
  'referrer_feedback',
  'referrer_feedback_questionnaire',
  // 0025_image_generation
  'image_generation',
  // 0026_temporary_upload_budget
  'temporary_upload_reservation',
  'temporary_upload_alert',
  // 0030_referrer_report_read
  'referrer_report_read',
  // 0031_staff_patient_lookup
  'staff_lookup_counter',
  // 0032_mail_unsubscribe
  'mail_recipient',
  // 0034_booking_form_details
  'booking_form_settings',
  'insurance_type',
  'ethnicity_option',
  'booking_form_details',
  // 0033_callback_requests
  'callback_request',
  'callback_limit_counter',
  // 0037_booking_request_handling
  'booking_request_handling',
  // 0040_hl7_outbound
  'hl7_outbound',
  // 0041_hl7_inbound
  'hl7_inbound',
  // 0042_appointment_reminders
  'reminder_settings',
  'appointment_reminder',
  // 0043_reminder_replies
  'sms_inbound_reply',
  // 0045_waitlist
  'waitlist_settings',
  'waitlist_entry',
  'freed_time',
  'waitlist_offer',
  // 0046_screening_review
  'screening_review_settings',
  'screening_review',
].sort();

async function tables(db: Database): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return rows.map((row) => row.name).sort();
}

/** Inserts the minimum an appointment needs and answers ids to book against. */
async function bookingFixture(
  db: Database,
  suffix: string,
): Promise<{ region: string; patient: string; exam: string; clinic: string; resource: string }> {
  const [region] = await db.query<{ id: string }>(`insert into region (slug, name) values ($1, 'R') returning id::text as id`, [
    `r${suffix}`,
  ]);
  const [modality] = await db.query<{ id: string }>(`insert into modality (code, name) values ($1, 'CT') returning id::text as id`, [
    `CT${suffix.toUpperCase()}`,
  ]);
  const [clinic] = await db.query<{ id: string }>(
    `insert into clinic (slug, region_id, name, street, suburb, state, postcode, phone, latitude, longitude, time_zone)
     values ($1, $2, 'C', 's', 's', 'NSW', '2000', '0', -33.8, 151.2, 'Australia/Sydney') returning id::text as id`,
    [`c${suffix}`, region?.id],
  );
  const [resource] = await db.query<{ id: string }>(
    `insert into resource (clinic_id, code, name, modality_id) values ($1, 'CT1', 'CT 1', $2) returning id::text as id`,
    [clinic?.id, modality?.id],
  );
  const [exam] = await db.query<{ id: string }>(
    `insert into exam (slug, exam_code, name, modality_id, duration_minutes, referral_required, enquiry_only)
     values ($1, $1, 'CT', $2, 15, true, false) returning id::text as id`,
    [`ct${suffix}`, modality?.id],
  );
  const [patient] = await db.query<{ id: string }>(
    `insert into patient (first_name, last_name, date_of_birth) values ('A', 'B', '1980-01-01') returning id::text as id`,
  );
  if (!region || !clinic || !resource || !exam || !patient) throw new Error('fixture insert failed');
  return { region: region.id, patient: patient.id, exam: exam.id, clinic: clinic.id, resource: resource.id };
}

function sqlState(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

describe.each(backends())('migrations on an empty %s database', (backend) => {
  const test = useTestDatabase({ backend, state: 'empty' });

  it('starts with no tables at all', async () => {
    expect(await tables(test.db)).toEqual([]);
  });

  it('applies every migration file in order and creates the schema', async () => {
    const applied = await migrate(test.db);
    expect(applied).toEqual(readMigrations().map((file) => file.version));
    expect(applied[0]).toBe('0001_init');
    expect(await tables(test.db)).toEqual(EXPECTED_TABLES);
    const [extension] = await test.db.query<{ extname: string }>(`select extname from pg_extension where extname = 'btree_gist'`);
    expect(extension?.extname).toBe('btree_gist');
  });

  it('does nothing when run again (idempotent)', async () => {
    expect(await migrate(test.db)).toEqual([]);
    const rows = await test.db.query<{ count: number }>('select count(*)::int as count from schema_migrations');
    expect(rows[0]?.count).toBe(readMigrations().length);
  });

  it('refuses to start when an applied migration file was edited afterwards', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
    try {
      cpSync(MIGRATIONS_DIR, directory, { recursive: true });
      const file = join(directory, '0001_init.sql');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n-- edited\n`);
      await expect(migrate(test.db, directory)).rejects.toThrow(MigrationError);
      await expect(migrate(test.db, directory)).rejects.toThrow(/0001_init was changed after it was applied/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('rolls back a failing migration completely and names it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
    try {
      cpSync(MIGRATIONS_DIR, directory, { recursive: true });
      writeFileSync(join(directory, '9998_good.sql'), 'create table migration_probe (id int);');
      writeFileSync(join(directory, '9999_bad.sql'), 'select * from no_such_table;');
      await expect(migrate(test.db, directory)).rejects.toThrow(/Migration 9999_bad failed/);
      expect(await tables(test.db)).not.toContain('migration_probe');
      expect(await migrate(test.db)).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('makes double booking impossible for live statuses, and allows a rebook after a cancel', async () => {
    const ids = await bookingFixture(test.db, 'a');
    const book = (key: string, status: string, from: string, to: string) =>
      test.db.query(
        `insert into appointment (booking_key, patient_id, exam_id, clinic_id, resource_id, status, during)
         values ($1, $2, $3, $4, $5, $6, tstzrange($7::timestamptz, $8::timestamptz, '[)'))`,
        [key, ids.patient, ids.exam, ids.clinic, ids.resource, status, from, to],
      );
    await book('a'.repeat(22), 'BOOKED', '2026-05-01T00:00:00Z', '2026-05-01T00:30:00Z');
    // Overlapping but not equal, in another slot-holding status: still a conflict.
    const overlap = await book('b'.repeat(22), 'ON_HOLD', '2026-05-01T00:15:00Z', '2026-05-01T00:45:00Z').catch((error: unknown) => error);
    expect(sqlState(overlap)).toBe('23P01');
    // Touching ranges [00:00,00:30) and [00:30,01:00) do not overlap.
    await book('c'.repeat(22), 'CONFIRMED', '2026-05-01T00:30:00Z', '2026-05-01T01:00:00Z');
    // A cancelled appointment holds no slot.
    await book('d'.repeat(22), 'CANCELED', '2026-05-01T00:00:00Z', '2026-05-01T00:30:00Z');
    await test.db.query(`update appointment set status = 'CANCELED' where booking_key = $1`, ['a'.repeat(22)]);
    await book('e'.repeat(22), 'PENDING', '2026-05-01T00:00:00Z', '2026-05-01T00:30:00Z');
  });

  it('rejects a booking key shorter than 128 bits and a resource from another clinic', async () => {
    const row = await bookingFixture(test.db, 'b');
    const short = await test.db
      .query(
        `insert into appointment (booking_key, patient_id, exam_id, clinic_id, resource_id, status, during)
         values ('short', $1, $2, $3, $4, 'BOOKED', tstzrange('2026-06-01T00:00:00Z', '2026-06-01T00:30:00Z'))`,
        [row.patient, row.exam, row.clinic, row.resource],
      )
      .catch((error: unknown) => error);
    expect(sqlState(short)).toBe('23514');
    const [otherClinic] = await test.db.query<{ id: string }>(
      `insert into clinic (slug, region_id, name, street, suburb, state, postcode, phone, latitude, longitude, time_zone)
       values ('other', $1, 'O', 's', 's', 'NSW', '2000', '0', -33.8, 151.2, 'Australia/Sydney') returning id::text as id`,
      [row.region],
    );
    const wrongClinic = await test.db
      .query(
        `insert into appointment (booking_key, patient_id, exam_id, clinic_id, resource_id, status, during)
         values ($1, $2, $3, $4, $5, 'BOOKED', tstzrange('2026-06-01T00:00:00Z', '2026-06-01T00:30:00Z'))`,
        ['f'.repeat(22), row.patient, row.exam, otherClinic?.id, row.resource],
      )
      .catch((error: unknown) => error);
    expect(sqlState(wrongClinic)).toBe('23503');
  });
});

describe.runIf(backends().includes('postgres'))('migrations when two servers start together on PostgreSQL', () => {
  let name = '';
  const pools: Database[] = [];
  beforeAll(async () => {
    name = await createPostgresDatabase();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
    if (name) await dropPostgresDatabase(name);
  });

  it('applies the migrations exactly once (advisory lock), the other start finds nothing to do', async () => {
    const first = await openPostgres(postgresUrlFor(name), name);
    const second = await openPostgres(postgresUrlFor(name), name);
    pools.push(first, second);
    const results = await Promise.all([migrate(first), migrate(second)]);
    const appliedCounts = results.map((applied) => applied.length).sort();
    expect(appliedCounts).toEqual([0, readMigrations().length]);
    expect(await tables(first)).toEqual(EXPECTED_TABLES);
  });
});
