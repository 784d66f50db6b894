import type { Clock } from '../../platform/clock';
import { addDays, localDate, zonedTimeToInstant } from '../../platform/time-zone';
import type { Database, Queryable } from '../connection';
import { DEMO_PROVIDER_DIR, loadDemoProvider, type DemoProvider } from './demo-provider';
import { insertDemoQuestionnaires } from './demo-questionnaires';
import { insertDemoReferrerFeedback } from './demo-referrer-feedback';
import { insertGeneratedReferringDoctors } from './referring-doctors';
import { insertBookingFormDetails } from './booking-form-details';
import { insertClinics, insertExams, one, type SeededClinic } from './catalogue';

/**
 * First start: when the provider table is empty, the demo provider is written in one
 * transaction, so a failure leaves no half provider. A second start finds the provider and does
 * nothing; on PostgreSQL an advisory lock keeps two servers starting together from both seeding.
 */

const SEED_LOCK_KEY = 7_242_002;

export interface SeedResult {
  seeded: boolean;
  /**
   * Booking keys of the upcoming live appointments seeded now, earliest first; empty when the
   * database was seeded before (a warm start asks nothing more). Never printed (the banner links
   * only demo-marker.ts's demo appointment).
   */
  bookingKeys: string[];
}

async function insertProvider(tx: Queryable, data: DemoProvider): Promise<void> {
  const { provider } = data;
  await tx.query(
    `insert into provider (app_config, radiology_config, body_figure_config, integration_config, theme_config,
                           environment_config, terms_html, embedding_origins)
     values ($1::jsonb, $2::jsonb, $3::jsonb, $4::jsonb, $5::jsonb, $6::jsonb, $7, array(select jsonb_array_elements_text($8::jsonb)))`,
    [
      JSON.stringify(provider.app),
      JSON.stringify(provider.radiology),
      JSON.stringify(provider.bodyFigure),
      JSON.stringify(provider.integration),
      JSON.stringify(provider.theme),
      JSON.stringify(provider.environment),
      provider.termsHtml,
      // Arrays go as JSON: the two drivers serialise JS arrays differently.
      JSON.stringify(provider.embeddingOrigins.map((origin) => new URL(origin).origin)),
    ],
  );
  for (const [locale, resources] of Object.entries(provider.translations)) {
    await tx.query('insert into translation_overlay (locale, resources) values ($1, $2::jsonb)', [locale, JSON.stringify(resources)]);
  }
  for (const image of data.images) {
    await tx.query(
      `insert into application_image (name, content_type, content, sha256)
       values ($1, $2, $3, encode(sha256($3::bytea), 'hex'))`,
      [image.name, image.contentType, image.content],
    );
  }
}

async function insertCatalogue(
  tx: Queryable,
  data: DemoProvider,
): Promise<{
  clinicIds: Map<string, SeededClinic>;
  resourceIds: Map<string, string>;
  examIds: Map<string, { id: string; durationMinutes: number }>;
  doctorIds: Map<string, string>;
}> {
  const regionIds = new Map<string, string>();
  for (const [position, region] of data.regions.entries()) {
    const row = await one<{ id: string }>(tx, 'insert into region (slug, name, position) values ($1, $2, $3) returning id::text as id', [
      region.slug,
      region.name,
      position,
    ]);
    regionIds.set(region.slug, row.id);
  }

  const modalityIds = new Map<string, string>();
  for (const modality of data.exams.modalities) {
    const row = await one<{ id: string }>(tx, 'insert into modality (code, name) values ($1, $2) returning id::text as id', [
      modality.code,
      modality.name,
    ]);
    modalityIds.set(modality.code, row.id);
  }
  const bodyPartIds = new Map<string, string>();
  for (const part of data.exams.bodyParts) {
    const row = await one<{ id: string }>(tx, 'insert into body_part (slug, name) values ($1, $2) returning id::text as id', [
      part.slug,
      part.name,
    ]);
    bodyPartIds.set(part.slug, row.id);
  }
  const documentTypeIds = new Map<string, string>();
  for (const type of data.documentTypes) {
    const row = await one<{ id: string }>(
      tx,
      'insert into document_type (code, title, description) values ($1, $2, $3) returning id::text as id',
      [type.code, type.title, type.description],
    );
    documentTypeIds.set(type.code, row.id);
  }

  const { clinicIds, resourceIds } = await insertClinics(tx, data, regionIds, modalityIds);

  const examIds = await insertExams(tx, data, { modalityIds, bodyPartIds, documentTypeIds });

  for (const [position, terms] of data.exams.searchSynonyms.entries()) {
    await tx.query('insert into exam_search_synonym (position, terms) values ($1, $2)', [position, terms]);
  }

  const doctorIds = new Map<string, string>();
  for (const doctor of data.referringDoctors) {
    const row = await one<{ id: string }>(
      tx,
      `insert into referring_doctor (provider_number, first_name, last_name, practice_name, city, postcode)
       values ($1, $2, $3, $4, $5, $6) returning id::text as id`,
      [doctor.providerNumber, doctor.firstName, doctor.lastName, doctor.practiceName, doctor.city, doctor.postcode],
    );
    doctorIds.set(doctor.providerNumber, row.id);
  }
  // The directory at real size for the check-in doctor search (referring-doctors.ts).
  await insertGeneratedReferringDoctors(tx);
  await insertBookingData(tx, data, modalityIds);
  await insertBookingFormDetails(tx, data);
  return { clinicIds, resourceIds, examIds, doctorIds };
}

/** Booking rules, public holidays, walk-in exams and postcodes (booking.json). */
async function insertBookingData(tx: Queryable, data: DemoProvider, modalityIds: Map<string, string>): Promise<void> {
  const { settings, publicHolidays, walkInExams, postcodes } = data.booking;
  await tx.query(
    `update booking_settings
        set lead_minutes = $1, horizon_days = $2, hold_minutes = $3, slot_step_minutes = $4, max_distance_km = $5,
            default_latitude = $6, default_longitude = $7, default_label = $8, call_centre_email = $9
      where id = 1`,
    [
      settings.leadMinutes,
      settings.horizonDays,
      settings.holdMinutes,
      settings.slotStepMinutes,
      settings.maxDistanceKm,
      settings.defaultLocation.latitude,
      settings.defaultLocation.longitude,
      settings.defaultLocation.label,
      settings.callCentreEmail ?? null,
    ],
  );
  for (const holiday of publicHolidays) {
    await tx.query('insert into public_holiday (state, holiday_on, name) values ($1, $2::date, $3)', [
      holiday.state,
      holiday.date,
      holiday.name,
    ]);
  }
  for (const [position, walkIn] of walkInExams.entries()) {
    const modalityId = modalityIds.get(walkIn.modalityCode);
    if (modalityId === undefined) throw new Error(`seed: unresolved modality '${walkIn.modalityCode}'`);
    await tx.query('insert into walk_in_exam (modality_id, name, prep_time, minutes_prior, position) values ($1, $2, $3, $4, $5)', [
      modalityId,
      walkIn.name,
      walkIn.prepTime,
      walkIn.minutesPrior,
      position,
    ]);
  }
  for (const postcode of postcodes) {
    await tx.query('insert into postcode_location (postcode, locality, latitude, longitude) values ($1, $2, $3, $4)', [
      postcode.postcode,
      postcode.locality,
      postcode.latitude,
      postcode.longitude,
    ]);
  }
}

/**
 * Self-service (self-service.json): rules, cancel reasons, consent forms, and booking
 * requests with their patients and referral files. References are looked up by slug/code in SQL.
 */
async function insertSelfService(tx: Queryable, data: DemoProvider, now: Date): Promise<void> {
  const { settings, cancelReasons, consentForms, bookingRequests } = data.selfService;
  await tx.query(
    `update self_service_settings
        set prior_minutes = $1, walk_in_reschedule_allowed = $2, cancel_questionnaire_required = $3,
            consent_notify_patient = $4, booking_request_info_html = $5
      where id = 1`,
    [
      settings.priorMinutes,
      settings.walkInRescheduleAllowed,
      settings.cancelQuestionnaireRequired,
      settings.consentNotifyPatient,
      settings.bookingRequestInfoHtml,
    ],
  );
  if (data.selfService.reminders !== undefined) {
    const { leadHours, quietHours } = data.selfService.reminders;
    await tx.query(`update reminder_settings set lead_hours = $1::int[], quiet_start = $2::time, quiet_end = $3::time where id = 1`, [
      leadHours,
      quietHours.start,
      quietHours.end,
    ]);
  }
  for (const [position, label] of cancelReasons.entries()) {
    await tx.query('insert into cancel_reason (label, position) values ($1, $2)', [label, position]);
  }
  for (const [position, form] of consentForms.entries()) {
    await tx.query(
      `insert into consent_form (slug, title, html, modality_id, position)
       values ($1, $2, $3, (select id from modality where code = $4), $5)`,
      [form.slug, form.title, form.html, form.modalityCode, position],
    );
  }
  for (const request of bookingRequests) {
    const { patient } = request;
    const patientRow = await one<{ id: string }>(
      tx,
      `insert into patient (title, first_name, last_name, date_of_birth, email, contact_number, postcode)
       values ($1, $2, $3, $4::date, $5, $6, $7) returning id::text as id`,
      [patient.title, patient.firstName, patient.lastName, patient.dateOfBirth, patient.email, patient.contactNumber, patient.postcode],
    );
    for (const [index, examSlug] of request.examSlugs.entries()) {
      await tx.query(
        `insert into booking_request (slug, booking_key, exam_id, clinic_id, patient_id, patient_notes, created_at)
         values ($1, $2, (select id from exam where slug = $3), (select id from clinic where slug = $4), $5::uuid, $6, $7::timestamptz)`,
        // Demo request slugs are derived from the key so a reseed gives the same ones.
        [
          `${request.bookingKey}-${index}`,
          request.bookingKey,
          examSlug,
          request.clinicSlug,
          patientRow.id,
          request.patientNotes,
          now.toISOString(),
        ],
      );
    }
    for (const file of request.referrals) {
      const content = data.referrals.get(file);
      if (content === undefined) throw new Error(`seed: unresolved referral '${file}'`);
      await tx.query(
        `insert into booking_request_referral (booking_key, file_name, content, sha256, created_at)
         values ($1, $2, $3, encode(sha256($3::bytea), 'hex'), $4::timestamptz)`,
        [request.bookingKey, file, content, now.toISOString()],
      );
    }
  }
}

const LIVE_STATUSES = new Set(['BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN']);

/** Writes the whole demo provider; the caller holds the transaction. */
export async function insertDemoProvider(tx: Queryable, data: DemoProvider, clock: Clock): Promise<string[]> {
  await insertProvider(tx, data);
  const ids = await insertCatalogue(tx, data);
  const now = clock.now();
  const patientIds = new Map<string, string>();
  const upcomingKeys: string[] = [];

  for (const appointment of data.appointments) {
    const clinic = ids.clinicIds.get(appointment.clinicSlug);
    const exam = ids.examIds.get(appointment.examSlug);
    const resourceId = ids.resourceIds.get(`${appointment.clinicSlug}/${appointment.resourceCode}`);
    if (clinic === undefined || exam === undefined || resourceId === undefined) {
      throw new Error(`seed: unresolved appointment reference for ${appointment.examSlug} at ${appointment.clinicSlug}`);
    }
    const { patient } = appointment;
    const patientKey = `${patient.firstName}|${patient.lastName}|${patient.dateOfBirth}|${patient.email.toLowerCase()}`;
    let patientId = patientIds.get(patientKey);
    if (patientId === undefined) {
      const row = await one<{ id: string }>(
        tx,
        `insert into patient (title, first_name, last_name, date_of_birth, email, contact_number, postcode)
         values ($1, $2, $3, $4::date, $5, $6, $7) returning id::text as id`,
        [patient.title, patient.firstName, patient.lastName, patient.dateOfBirth, patient.email, patient.contactNumber, patient.postcode],
      );
      patientId = row.id;
      patientIds.set(patientKey, patientId);
    }
    const starts = demoStart(appointment, now, clinic, exam.durationMinutes);
    const ends = new Date(starts.getTime() + exam.durationMinutes * 60_000);
    const doctorId =
      appointment.referringDoctorProviderNumber === null ? null : (ids.doctorIds.get(appointment.referringDoctorProviderNumber) ?? null);
    await tx.query(
      `insert into appointment (booking_key, patient_id, exam_id, clinic_id, resource_id, referring_doctor_id, status, during)
       values ($1, $2, $3, $4, $5, $6, $7, tstzrange($8::timestamptz, $9::timestamptz, '[)'))`,
      [
        appointment.bookingKey,
        patientId,
        exam.id,
        clinic.id,
        resourceId,
        doctorId,
        appointment.status,
        starts.toISOString(),
        ends.toISOString(),
      ],
    );
    if (LIVE_STATUSES.has(appointment.status) && starts.getTime() > now.getTime()) upcomingKeys.push(appointment.bookingKey);
  }
  await insertSelfService(tx, data, now);
  if (data.questionnaires !== undefined) await insertDemoQuestionnaires(tx, data.questionnaires);
  if (data.referrerFeedback !== undefined) await insertDemoReferrerFeedback(tx, data.referrerFeedback);
  return upcomingKeys;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a YYYY-MM-DD date. */
function isoWeekday(isoDate: string): number {
  const day = new Date(`${isoDate}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The clinic is open on that day for the whole of [start, start + minutes) (HH:MM strings compare as times). */
function openFor(clinic: SeededClinic, isoDate: string, start: string, minutes: number): boolean {
  if (clinic.closedDates.includes(isoDate)) return false;
  const [hours = 0, mins = 0] = start.split(':').map(Number);
  const endMinutes = hours * 60 + mins + minutes;
  const end = `${String(Math.floor(endMinutes / 60)).padStart(2, '0')}:${String(endMinutes % 60).padStart(2, '0')}`;
  return clinic.openingHours.some((open) => open.weekday === isoWeekday(isoDate) && open.opens <= start && end <= open.closes);
}

/**
 * When a demo appointment starts: "in 7 days at 09:30" is 09:30 on the clinic's wall clock,
 * whatever the server's zone, moved on to the next day the clinic is open then (a Saturday
 * afternoon booking at a clinic closed at that time would be a slot no patient could book or get
 * back); "in 60 minutes" is counted from the seed, rounded up to 5 minutes.
 */
function demoStart(
  appointment: { dayOffset?: number; startTime?: string; startsInMinutes?: number },
  now: Date,
  clinic: SeededClinic,
  durationMinutes: number,
): Date {
  if (appointment.startsInMinutes !== undefined) {
    const step = 5 * 60_000;
    return new Date(Math.ceil((now.getTime() + appointment.startsInMinutes * 60_000) / step) * step);
  }
  const time = appointment.startTime ?? '09:00';
  let day = addDays(localDate(now, clinic.timeZone), appointment.dayOffset ?? 0);
  for (let tries = 0; tries < 14 && !openFor(clinic, day, time, durationMinutes); tries += 1) day = addDays(day, 1);
  return zonedTimeToInstant(day, time, clinic.timeZone);
}

async function hasProvider(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ count: number }>('select count(*)::int as count from provider');
  return (rows[0]?.count ?? 0) > 0;
}

/**
 * Seeds the demo provider when the database has none.
 * @param options.directory - the demo provider folder (resources/demo-provider by default).
 */
export async function seedDemoProvider(db: Database, options: { clock: Clock; directory?: string }): Promise<SeedResult> {
  // A seeded database never reads the files again, so later edits to them cannot stop a start.
  if (await hasProvider(db)) return { seeded: false, bookingKeys: [] };
  // Validate before the transaction: a broken file fails the start without touching the database.
  const data = await loadDemoProvider(options.directory ?? DEMO_PROVIDER_DIR);
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    // Another server may have seeded while we read the files.
    if (await hasProvider(tx)) return { seeded: false, bookingKeys: [] };
    return { seeded: true, bookingKeys: await insertDemoProvider(tx, data, options.clock) };
  });
}
