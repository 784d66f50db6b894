import { createHash } from 'node:crypto';
import {
  HOLD_EXPIRED_MESSAGE,
  PATIENT_MESSAGES,
  SLOT_TAKEN_MESSAGE,
  type AppointmentCreateRequest,
  type AppointmentCreateResponse,
  type BookingClinic,
  type BookingRequestCreate,
  type BookingRequestCreateResponse,
  type BookingSettings,
  type Catalogue,
  type ClinicsResponse,
  type Exam,
  type ExamSearchQuery,
  type HoldRequest,
  type HoldResponse,
  type MonthResponse,
  type PostalCodeLocation,
  type Slot,
  type WalkInExam,
} from '@contract/api/booking';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { AppError, appError, badRequest, notFound } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { localDate } from '../../platform/time-zone';
import { hashRequest } from '../../platform/request-hash';
import type { AvailabilityIndex, BusyEntry } from '../availability/availability-index';
import { addDays, localMidnight } from '../schedule/zone-days';
import type { AvailabilityStore } from '../availability/availability-store';
import { queueBookingConfirmation } from '../notifications/booking-confirmation';
import { applyQuestionnaireAnswers, outcomesForKey, UNKNOWN_QUESTIONNAIRE_KEY } from '../questionnaires/service';
import {
  bookingWrites,
  DEADLOCK_DETECTED,
  EXCLUSION_VIOLATION,
  sqlState,
  UNIQUE_VIOLATION,
  type BookingRepository,
  type ClinicRow,
  type ExamRow,
  type NewSlotRow,
  type WrittenRow,
} from './repository';

/**
 * Booking rules (issue 3): which clinics offer the chosen exams, which times are free, holding a
 * time, booking it (once, whatever the retries), and booking requests for enquiry-only exams.
 * Free times come from the in-memory index; every write goes through the database, where the
 * exclusion constraint decides races, and is applied to the index right after it commits.
 */

export interface BookingServiceDeps {
  db: Database;
  repository: BookingRepository;
  store: AvailabilityStore;
  clock: Clock;
  publicUrl: string;
}

const MINUTE = 60_000;
/** How many fresh times a "just taken" answer suggests. */
const FRESH_SLOT_LIMIT = 24;
const FRESH_SLOT_DAYS = 7;
/** Whole availability answers kept (each a few hundred KB at most). */
const ANSWER_CACHE_SIZE = 200;
/** Attempts per resource when PostgreSQL picks this transaction as a deadlock victim. */
const DEADLOCK_RETRIES = 3;
/** Patients' dates of birth are checked against the date in Australia's east when no clinic applies. */
const DEFAULT_PATIENT_ZONE = 'Australia/Sydney';

interface CachedCatalogue {
  modalities: Array<{ id: string; code: string; name: string }>;
  bodyParts: Array<{ slug: string; name: string }>;
  exams: ExamRow[];
  examsBySlug: Map<string, ExamRow>;
  clinics: ClinicRow[];
  clinicsBySlug: Map<string, ClinicRow>;
  providerName: string;
}

function toExam(row: ExamRow): Exam {
  return {
    slug: row.slug,
    name: row.name,
    modalityId: row.modality_id,
    modalityName: row.modality_name,
    priority: row.priority,
    examCode: row.exam_code,
    examNotes: row.preparation_notes === '' ? null : row.preparation_notes,
    notes: row.notes,
    showBookingRequestInfoModal: row.enquiry_only,
    enquiryOnly: row.enquiry_only,
    bodyPartSlugs: row.body_part_slugs,
    durationMinutes: row.duration_minutes,
    medicareRequired: row.medicare_required,
    preparationNotes: row.preparation_notes,
  };
}

function toClinic(row: ClinicRow): BookingClinic {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    region: { id: row.region_id, slug: row.region_slug, name: row.region_name },
    address: { street: row.street, suburb: row.suburb, state: row.state, postcode: row.postcode },
    latitude: row.latitude,
    longitude: row.longitude,
    timeZone: row.time_zone,
    phone: row.phone,
  };
}

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radians = (degrees: number): number => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const localTimeFormatters = new Map<string, Intl.DateTimeFormat>();
function formatLocalTime(instant: number, timeZone: string): string {
  let format = localTimeFormatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    localTimeFormatters.set(timeZone, format);
  }
  return format.format(new Date(instant));
}

/**
 * Slots of one local day with their wall-clock time. One zone conversion per day: a day without
 * a daylight-saving change has one offset; only the two change days a year format each slot.
 */
function toSlots(starts: readonly number[], isoDate: string, timeZone: string): Slot[] {
  if (starts.length === 0) return [];
  const midnight = localMidnight(isoDate, timeZone);
  const nextMidnight = localMidnight(addDays(isoDate, 1), timeZone);
  const steady = nextMidnight - midnight === 24 * 60 * MINUTE;
  return starts.map((start) => {
    let localTime: string;
    if (steady) {
      const minutes = Math.floor((start - midnight) / MINUTE);
      localTime = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    } else {
      localTime = formatLocalTime(start, timeZone);
    }
    return { startsAt: new Date(start).toISOString(), localTime };
  });
}

/**
 * One day of the availability answer as JSON text, written directly: every value is an ISO
 * date, an ISO instant or HH:MM, so nothing needs escaping, and this is the hot path of an
 * uncached week (thousands of slots).
 */
function renderDayJson(isoDate: string, starts: readonly number[], timeZone: string): string {
  const slots = toSlots(starts, isoDate, timeZone);
  let json = `{"date":"${isoDate}","slots":[`;
  for (let index = 0; index < slots.length; index++) {
    const slot = slots[index];
    if (slot === undefined) continue;
    json += `${index === 0 ? '' : ','}{"startsAt":"${slot.startsAt}","localTime":"${slot.localTime}"}`;
  }
  return `${json}]}`;
}

function validationError(field: string, message: string): AppError {
  return badRequest(message, [{ in: `body/${field}`, message }], 'validation_failed');
}

export function createBookingService(deps: BookingServiceDeps) {
  const { db, repository, store, clock } = deps;
  let catalogueCache: { index: AvailabilityIndex; value: CachedCatalogue } | null = null;
  const answerCache = new Map<string, { index: AvailabilityIndex; revision: number; nowKey: number; validUntil: number; body: string }>();

  /** The catalogue changes when schedules or exams do; the store reloads its index then, so the index identity is the cache key. */
  async function catalogue(): Promise<{ catalogue: CachedCatalogue; index: AvailabilityIndex }> {
    const index = await store.fresh();
    if (catalogueCache?.index === index) return { catalogue: catalogueCache.value, index };
    const [modalities, bodyParts, exams, clinics, providerRows] = [
      await repository.modalities(),
      await repository.bodyParts(),
      await repository.exams(),
      await repository.clinics(),
      await db.query<{ name: string | null }>(`select radiology_config->>'name' as name from provider where id = 1`),
    ];
    const value: CachedCatalogue = {
      modalities,
      bodyParts,
      exams,
      examsBySlug: new Map(exams.map((exam) => [exam.slug, exam])),
      clinics,
      clinicsBySlug: new Map(clinics.map((clinic) => [clinic.slug, clinic])),
      providerName: providerRows[0]?.name ?? 'Radiology',
    };
    catalogueCache = { index, value };
    return { catalogue: value, index };
  }

  function resolveExams(cached: CachedCatalogue, slugs: readonly string[]): ExamRow[] {
    return slugs.map((slug) => {
      const exam = cached.examsBySlug.get(slug);
      if (exam === undefined) throw validationError('exams', `We could not find the exam '${slug}'.`);
      return exam;
    });
  }

  /** Exams that share one time: same modality, each bookable online. */
  function bookableExams(
    cached: CachedCatalogue,
    slugs: readonly string[],
  ): { exams: ExamRow[]; modalityId: string; durationMinutes: number } {
    const exams = resolveExams(cached, slugs);
    const enquiry = exams.find((exam) => exam.enquiry_only);
    if (enquiry !== undefined) {
      throw validationError('exams', `${enquiry.name} has no online times; please send a booking request for it instead.`);
    }
    const modalityId = exams[0]?.modality_id ?? '';
    if (exams.some((exam) => exam.modality_id !== modalityId)) {
      throw validationError(
        'exams',
        'Exams of different modalities cannot share one appointment time; book one of them and add the other as a walk-in exam.',
      );
    }
    return { exams, modalityId, durationMinutes: exams.reduce((total, exam) => total + exam.duration_minutes, 0) };
  }

  function clinicBySlug(cached: CachedCatalogue, slug: string, field = 'clinicSlug'): ClinicRow {
    const clinic = cached.clinicsBySlug.get(slug);
    if (clinic === undefined) throw validationError(field, `We could not find the clinic '${slug}'.`);
    return clinic;
  }

  function freshSlots(index: AvailabilityIndex, clinic: ClinicRow, modalityId: string, durationMinutes: number, from: string): Slot[] {
    const now = clock.now().getTime();
    const slots: Slot[] = [];
    for (let day = 0; day < FRESH_SLOT_DAYS && slots.length < FRESH_SLOT_LIMIT; day++) {
      const date = addDays(from, day);
      slots.push(...toSlots(index.freeStarts(clinic.id, modalityId, durationMinutes, date, now), date, clinic.time_zone));
    }
    return slots.slice(0, FRESH_SLOT_LIMIT);
  }

  async function slotTaken(
    clinic: ClinicRow,
    modalityId: string,
    durationMinutes: number,
    start: number,
    expiredHold = false,
  ): Promise<AppError> {
    // The winner may be another process: catch up before suggesting other times.
    const index = await store.fresh();
    const from = localDate(new Date(start), clinic.time_zone);
    return appError(expiredHold ? 'hold_expired' : 'slot_taken', 409, expiredHold ? HOLD_EXPIRED_MESSAGE : SLOT_TAKEN_MESSAGE, {
      freshSlots: freshSlots(index, clinic, modalityId, durationMinutes, from),
    });
  }

  /** Consecutive times on one resource for the exams, in the order chosen. */
  function consecutive(exams: readonly ExamRow[], start: number): NewSlotRow[] {
    let cursor = start;
    return exams.map((exam) => {
      const slot = { examId: exam.id, start: new Date(cursor), end: new Date(cursor + exam.duration_minutes * MINUTE) };
      cursor += exam.duration_minutes * MINUTE;
      return slot;
    });
  }

  function busyEntries(rows: readonly WrittenRow[], holdExpiresAt: number | null): BusyEntry[] {
    return rows.map((row) => ({ id: row.id, resourceId: row.resource_id, start: row.starts_ms, end: row.ends_ms, holdExpiresAt }));
  }

  async function retryOnDeadlock<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (sqlState(error) !== DEADLOCK_DETECTED || attempt >= DEADLOCK_RETRIES) throw error;
      }
    }
  }

  /**
   * Runs `write` on each candidate resource in turn, each in its own transaction, until one
   * commits; an exclusion violation means that resource went to someone else. Answers null when
   * every candidate was taken.
   */
  /** The resource of a live hold on exactly these exams and times at the clinic, else null. */
  async function ownHoldResource(holdId: string, clinicId: string, slots: readonly NewSlotRow[], nowMs: number): Promise<string | null> {
    const held = await bookingWrites.heldRows(db, holdId);
    const matches =
      held.length === slots.length &&
      held.every(
        (row, position) =>
          row.expires_ms > nowMs &&
          row.clinic_id === clinicId &&
          row.resource_id === held[0]?.resource_id &&
          row.exam_id === slots[position]?.examId &&
          row.starts_ms === slots[position]?.start.getTime() &&
          row.ends_ms === slots[position]?.end.getTime(),
      );
    return matches ? (held[0]?.resource_id ?? null) : null;
  }

  async function onFirstFreeResource<T>(
    resourceIds: readonly string[],
    write: (tx: Queryable, resourceId: string) => Promise<T>,
  ): Promise<T | null> {
    for (const resourceId of resourceIds) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction((tx) => write(tx, resourceId));
        } catch (error) {
          const state = sqlState(error);
          if (state === EXCLUSION_VIOLATION) break;
          // Two inserts of conflicting rows can each wait for the other inside the exclusion
          // check; PostgreSQL aborts one as a deadlock. Its rival may yet roll back, so try again.
          if (state === DEADLOCK_DETECTED && attempt < DEADLOCK_RETRIES) continue;
          if (state === DEADLOCK_DETECTED) break;
          throw error;
        }
      }
    }
    return null;
  }

  function checkPatient(patient: AppointmentCreateRequest['patient'], exams: readonly ExamRow[], timeZone: string): void {
    if (patient.dateOfBirth > localDate(clock.now(), timeZone)) {
      throw validationError('patient/dateOfBirth', PATIENT_MESSAGES.dateOfBirthFuture);
    }
    if (patient.medicareNumber === undefined && exams.some((exam) => exam.medicare_required)) {
      throw validationError('patient/medicareNumber', PATIENT_MESSAGES.medicareRequired);
    }
  }

  /** A stored answer for this key: replay it, or refuse a different request under the same key. */
  /** Whether the temporary answers under this key turn the exams into a booking request (an unknown key: 400). */
  async function answersAskForRequest(questionnaireKey: string, examSlugs: readonly string[]): Promise<boolean> {
    try {
      return (await outcomesForKey(db, questionnaireKey, examSlugs, clock.now())).createBookingRequest;
    } catch (error) {
      if ((error as AppError).code === 'not_found') throw validationError('questionnaireKey', UNKNOWN_QUESTIONNAIRE_KEY);
      throw error;
    }
  }

  async function replay<T>(scope: string, key: string, requestHash: string): Promise<T | null> {
    const existing = await repository.idempotency(scope, key);
    if (existing === null) return null;
    if (existing.request_hash !== requestHash) {
      throw appError(
        'idempotency_key_reused',
        422,
        'This Idempotency-Key was already used for a different request. Send a new key for a new booking.',
      );
    }
    return existing.response as T;
  }

  function parseInstant(value: string): number {
    const instant = Date.parse(value);
    if (Number.isNaN(instant)) throw validationError('startsAt', 'The start time is not a valid date and time.');
    return instant;
  }

  const notOffered = (): AppError => validationError('startsAt', 'That time is not offered. Please choose one of the listed times.');

  return {
    async catalogue(): Promise<Catalogue> {
      const { catalogue: cached } = await catalogue();
      return {
        modalities: cached.modalities.map((modality) => ({ id: modality.id, slug: modality.code.toLowerCase(), name: modality.name })),
        bodyParts: cached.bodyParts,
        exams: cached.exams.map(toExam),
      };
    },

    async searchExams(query: ExamSearchQuery): Promise<Exam[]> {
      const { catalogue: cached } = await catalogue();
      const search = query.search?.toLowerCase() ?? '';
      const modality = query.modality?.toLowerCase();
      return cached.exams
        .filter((exam) => search === '' || exam.name.toLowerCase().includes(search))
        .filter((exam) => modality === undefined || exam.modality_id === modality || exam.modality_code.toLowerCase() === modality)
        .filter((exam) => query.bodyPart === undefined || exam.body_part_slugs.includes(query.bodyPart))
        .map(toExam);
    },

    async settings(): Promise<BookingSettings> {
      const settings = await store.settings();
      return {
        defaultLocation: { latitude: settings.default_latitude, longitude: settings.default_longitude, label: settings.default_label },
        maxDistanceKm: settings.max_distance_km,
        leadMinutes: settings.lead_minutes,
        horizonDays: settings.horizon_days,
        holdMinutes: settings.hold_minutes,
      };
    },

    async postcode(code: string): Promise<PostalCodeLocation> {
      const row = await repository.postcode(code);
      if (row === null) throw notFound(`We could not find the postcode ${code}. Please check it and try again.`);
      return row;
    },

    async walkInExams(modality: string | undefined): Promise<WalkInExam[]> {
      const rows = await repository.walkInExams(modality ?? null);
      return rows.map((row) => ({ name: row.name, prepTime: row.prep_time, minutesPrior: row.minutes_prior }));
    },

    async clinics(query: { exams: string[]; lat?: number | undefined; lng?: number | undefined }): Promise<ClinicsResponse> {
      const { catalogue: cached, index } = await catalogue();
      const settings = await store.settings();
      const exams = resolveExams(cached, query.exams);
      const fallback = { latitude: settings.default_latitude, longitude: settings.default_longitude };
      let origin = fallback;
      let usedDefault = true;
      if (query.lat !== undefined && query.lng !== undefined) {
        const asked = { latitude: query.lat, longitude: query.lng };
        if (distanceKm(asked, fallback) <= settings.max_distance_km) {
          origin = asked;
          usedDefault = false;
        }
      }
      const modalityIds = [...new Set(exams.map((exam) => exam.modality_id))];
      const onlineExams = exams.filter((exam) => !exam.enquiry_only);
      const now = clock.now().getTime();
      const clinics = cached.clinics
        .filter((clinic) => modalityIds.every((modalityId) => clinic.modality_ids.includes(modalityId)))
        .map((clinic) => {
          // "Next available" is for the time the patient books: the exams sharing the first
          // exam's modality (others are walk-ins); none when everything needs an enquiry.
          const first = onlineExams[0];
          let nextAvailable: string | null = null;
          if (first !== undefined) {
            const shared = onlineExams.filter((exam) => exam.modality_id === first.modality_id);
            const duration = shared.reduce((total, exam) => total + exam.duration_minutes, 0);
            const next = index.nextFreeStart(clinic.id, first.modality_id, duration, now);
            nextAvailable = next === null ? null : new Date(next).toISOString();
          }
          return { clinic: toClinic(clinic), distanceKm: Math.round(distanceKm(origin, clinic) * 10) / 10, nextAvailable };
        })
        .sort((a, b) => a.distanceKm - b.distanceKm || a.clinic.name.localeCompare(b.clinic.name));
      return { origin: { ...origin, usedDefault }, clinics };
    },

    /**
     * Free times per clinic and day (AvailabilityResponse), as JSON text assembled from the index's cached days:
     * a week of 50 clinics is thousands of slots, and rendering them again for every request
     * would cost more than finding them.
     */
    async availabilityJson(query: { exams: string[]; clinics: string[]; from: string; days: number }): Promise<string> {
      const { catalogue: cached, index } = await catalogue();
      const { modalityId, durationMinutes } = bookableExams(cached, query.exams);
      const clinics = query.clinics.map((slug) => clinicBySlug(cached, slug, 'clinics'));
      const now = clock.now().getTime();
      // A whole answer is reused while nothing it depends on moved: no change in the index, the
      // lead-time cut-off still before the same grid time, and no counted hold expired.
      const key = `${query.exams.join(',')}|${query.clinics.join(',')}|${query.from}|${query.days}`;
      const nowKey = Math.ceil((now + index.rules.leadMinutes * MINUTE) / (index.rules.slotStepMinutes * MINUTE));
      const reuse = answerCache.get(key);
      if (
        reuse !== undefined &&
        reuse.index === index &&
        reuse.revision === index.revision &&
        reuse.nowKey === nowKey &&
        now < reuse.validUntil
      ) {
        return reuse.body;
      }
      const validity = { until: Number.POSITIVE_INFINITY };
      const parts = clinics.map((clinic) => {
        const days: string[] = [];
        let date = query.from;
        for (let day = 0; day < query.days; day++, date = addDays(date, 1)) {
          const isoDate = date;
          days.push(
            index.dayJson(
              clinic.id,
              modalityId,
              durationMinutes,
              isoDate,
              now,
              (starts) => renderDayJson(isoDate, starts, clinic.time_zone),
              validity,
            ),
          );
        }
        return `{"clinicSlug":${JSON.stringify(clinic.slug)},"timeZone":${JSON.stringify(clinic.time_zone)},"days":[${days.join(',')}]}`;
      });
      const body = `{"clinics":[${parts.join(',')}]}`;
      if (answerCache.size >= ANSWER_CACHE_SIZE) answerCache.clear();
      answerCache.set(key, { index, revision: index.revision, nowKey, validUntil: validity.until, body });
      return body;
    },

    async month(query: { exams: string[]; clinics: string[]; month: string }): Promise<MonthResponse> {
      const { catalogue: cached, index } = await catalogue();
      const { modalityId, durationMinutes } = bookableExams(cached, query.exams);
      const clinics = query.clinics.map((slug) => clinicBySlug(cached, slug, 'clinics'));
      const now = clock.now().getTime();
      const first = `${query.month}-01`;
      const days: MonthResponse['days'] = [];
      for (let date = first; date.startsWith(query.month); date = addDays(date, 1)) {
        days.push({ date, available: clinics.some((clinic) => index.hasFreeStart(clinic.id, modalityId, durationMinutes, date, now)) });
      }
      return { days };
    },

    async createHold(request: HoldRequest): Promise<HoldResponse> {
      const { catalogue: cached, index } = await catalogue();
      const { exams, modalityId, durationMinutes } = bookableExams(cached, request.exams);
      const clinic = clinicBySlug(cached, request.clinicSlug);
      const start = parseInstant(request.startsAt);
      const now = clock.now();
      const candidates = index.candidates(clinic.id, modalityId, durationMinutes, start, now.getTime());
      if (candidates.scheduled.length === 0) throw notOffered();
      const settings = await store.settings();
      const holdId = randomToken();
      const expiresAt = new Date(now.getTime() + settings.hold_minutes * MINUTE);
      const slots = consecutive(exams, start);
      const end = start + durationMinutes * MINUTE;
      const written = await onFirstFreeResource(candidates.free, async (tx, resourceId) => {
        const expired = await bookingWrites.deleteExpiredHolds(tx, resourceId, new Date(start), new Date(end), now);
        const rows = await bookingWrites.insertHeld(tx, { holdId, clinicId: clinic.id, resourceId, expiresAt, slots });
        return { expired, rows, written: { version: await bookingWrites.availabilityVersion(tx), bumps: expired.length > 0 ? 2 : 1 } };
      });
      if (written === null) throw await slotTaken(clinic, modalityId, durationMinutes, start);
      store.applyCommitted(busyEntries(written.rows, expiresAt.getTime()), written.expired, written.written);
      return { holdId, expiresAt: expiresAt.toISOString() };
    },

    async releaseHold(holdId: string): Promise<void> {
      const { removed, version } = await db.transaction(async (tx) => {
        const ids = await bookingWrites.deleteHold(tx, holdId);
        return { removed: ids, version: await bookingWrites.availabilityVersion(tx) };
      });
      store.applyCommitted([], removed, removed.length > 0 ? { version, bumps: 1 } : undefined);
    },

    /**
     * Deletes expired holds. Bookings clear expired holds in their own range anyway; the sweep
     * keeps them from piling up and from blocking writers that do not know about holds.
     */
    async sweepExpiredHolds(): Promise<number> {
      const removed = await db.transaction((tx) => bookingWrites.deleteAllExpiredHolds(tx, clock.now()));
      store.applyCommitted([], removed);
      return removed.length;
    },

    async createAppointment(idempotencyKey: string, request: AppointmentCreateRequest): Promise<AppointmentCreateResponse> {
      const { catalogue: cached, index } = await catalogue();
      const { exams, modalityId, durationMinutes } = bookableExams(cached, request.exams);
      const clinic = clinicBySlug(cached, request.clinicSlug);
      checkPatient(request.patient, exams, clinic.time_zone);
      const start = parseInstant(request.startsAt);
      const requestHash = hashRequest(request);
      const replayed = await replay<AppointmentCreateResponse>('appointment', idempotencyKey, requestHash);
      if (replayed !== null) return replayed;

      const now = clock.now();
      const status = request.pending === true ? 'PENDING' : 'BOOKED';
      const bookingKey = randomToken();
      const slots = consecutive(exams, start);
      const end = start + durationMinutes * MINUTE;
      const { patient } = request;

      const respond = (rows: readonly WrittenRow[]): AppointmentCreateResponse => {
        const byExam = new Map(rows.map((row) => [row.exam_id, row]));
        return {
          bookingKey,
          status,
          appointments: exams.map((exam) => {
            const row = byExam.get(exam.id);
            if (row === undefined) throw new Error(`booking wrote no appointment for exam ${exam.slug}`);
            return {
              success: true,
              errorMessage: null,
              id: row.id,
              modalityName: exam.modality_name,
              examName: exam.name,
              clinicName: clinic.name,
              date: new Date(row.starts_ms).toISOString(),
              patientYearOfBirth: Number(patient.dateOfBirth.slice(0, 4)),
              patientEmailHash: sha256(patient.email.trim().toLowerCase()),
            };
          }),
        };
      };

      /** Everything after the time is secured: patient, mail, audit, the idempotency record. */
      const finish = async (tx: Queryable, rows: readonly WrittenRow[]): Promise<AppointmentCreateResponse> => {
        // Issue 5: answers that deny the booking roll it back (409); otherwise they move to it.
        await applyQuestionnaireAnswers(tx, request.questionnaireKey, {
          examSlugs: request.exams,
          owner: 'APPOINTMENT',
          bookingKey,
          now,
          hasMedicareNumber: patient.medicareNumber !== undefined,
          validationCode: request.validationCode,
        });
        const response = respond(rows);
        await queueBookingConfirmation(
          tx,
          {
            bookingKey,
            patient: { title: patient.title, firstName: patient.firstName, lastName: patient.lastName, email: patient.email },
            clinic: {
              name: clinic.name,
              address: `${clinic.street}, ${clinic.suburb} ${clinic.state} ${clinic.postcode}`,
              phone: clinic.phone,
              timeZone: clinic.time_zone,
            },
            appointments: exams.map((exam, position) => ({
              examName: exam.name,
              modalityName: exam.modality_name,
              startsAt: slots[position]?.start.toISOString() ?? new Date(start).toISOString(),
              endsAt: slots[position]?.end.toISOString() ?? new Date(end).toISOString(),
              ...(exam.preparation_notes === '' ? {} : { preparationNotes: exam.preparation_notes }),
            })),
            ...(request.walkInExam === undefined ? {} : { walkInExam: request.walkInExam }),
            staffBooking: request.staffBooking === true,
            pending: status === 'PENDING',
          },
          { publicUrl: deps.publicUrl, providerName: cached.providerName, clock },
        );
        await bookingWrites.audit(tx, {
          actor: request.staffBooking === true ? 'staff' : 'patient',
          action: 'appointment.created',
          subjectType: 'appointment',
          subjectId: rows.map((row) => row.id).join(','),
          details: { clinic: clinic.slug, exams: exams.map((exam) => exam.slug), status, viaHold: request.holdId !== undefined },
        });
        await bookingWrites.insertIdempotency(tx, {
          scope: 'appointment',
          key: idempotencyKey,
          requestHash,
          statusCode: 201,
          response,
          now,
        });
        return response;
      };

      const patientInput = { ...patient };
      const common = { walkInExam: request.walkInExam, staffBooking: request.staffBooking === true };

      try {
        // 1. A live hold for exactly this booking becomes the appointments in place.
        if (request.holdId !== undefined) {
          const holdId = request.holdId;
          const confirmed = await retryOnDeadlock(() =>
            db.transaction(async (tx) => {
              const held = await bookingWrites.heldRows(tx, holdId);
              if (held.length === 0 || held.some((row) => row.expires_ms <= now.getTime())) return null;
              const matches =
                held.length === slots.length &&
                held.every(
                  (row, position) =>
                    row.clinic_id === clinic.id &&
                    row.exam_id === slots[position]?.examId &&
                    row.starts_ms === slots[position]?.start.getTime() &&
                    row.ends_ms === slots[position]?.end.getTime(),
                );
              if (!matches) throw validationError('holdId', 'The held time does not match this booking. Please choose the time again.');
              const patientId = await bookingWrites.insertPatient(tx, patientInput);
              const rows = await bookingWrites.confirmHold(tx, { holdId, bookingKey, patientId, status, ...common });
              const response = await finish(tx, rows);
              return { rows, response, written: { version: await bookingWrites.availabilityVersion(tx), bumps: 1 } };
            }),
          );
          if (confirmed !== null) {
            store.applyCommitted(busyEntries(confirmed.rows, null), [], confirmed.written);
            return confirmed.response;
          }
        }

        // 2. No (live) hold: book the time directly if some resource is still free.
        const candidates = index.candidates(clinic.id, modalityId, durationMinutes, start, now.getTime());
        const ownHold = request.holdId;
        // Expired holds (the patient's own included) do not count as busy in the index.
        const free = candidates.free;
        if (candidates.scheduled.length === 0) throw notOffered();
        const written = await onFirstFreeResource(free, async (tx, resourceId) => {
          const expired = await bookingWrites.deleteExpiredHolds(tx, resourceId, new Date(start), new Date(end), now);
          const patientId = await bookingWrites.insertPatient(tx, patientInput);
          const rows = await bookingWrites.insertAppointments(tx, {
            bookingKey,
            patientId,
            clinicId: clinic.id,
            resourceId,
            status,
            slots,
            ...common,
          });
          const response = await finish(tx, rows);
          return {
            expired,
            rows,
            response,
            written: { version: await bookingWrites.availabilityVersion(tx), bumps: expired.length > 0 ? 2 : 1 },
          };
        });
        if (written === null) throw await slotTaken(clinic, modalityId, durationMinutes, start, ownHold !== undefined);
        store.applyCommitted(busyEntries(written.rows, null), written.expired, written.written);
        return written.response;
      } catch (error) {
        // A concurrent retry with the same key may have won: answer what it answered.
        if (error instanceof AppError && (error.code === 'slot_taken' || error.code === 'hold_expired')) {
          const winner = await replay<AppointmentCreateResponse>('appointment', idempotencyKey, requestHash);
          if (winner !== null) return winner;
        }
        if (sqlState(error) === UNIQUE_VIOLATION) {
          const winner = await replay<AppointmentCreateResponse>('appointment', idempotencyKey, requestHash);
          if (winner !== null) return winner;
          throw appError('conflict', 409, 'This booking is already being processed. Please wait a moment.');
        }
        // Still a deadlock victim after the retries: someone else is taking this time.
        if (sqlState(error) === DEADLOCK_DETECTED)
          throw await slotTaken(clinic, modalityId, durationMinutes, start, request.holdId !== undefined);
        throw error;
      }
    },

    /**
     * Books exams at a time with the same exam, clinic, offered-time and free-resource rules as
     * createAppointment, inside steps the caller writes (reschedule and change, issue 4). Per
     * attempt, in ONE transaction: `prepare` (lock and release the old appointments with at most
     * one UPDATE of appointment; answer what to insert), the insert, then `finish`. When the
     * exclusion constraint refuses the insert everything rolls back, so the old appointments keep
     * their time. Throws slot_taken (with fresh times) when every resource was taken.
     * With the caller's live hold on exactly these exams and times, its resource is tried first
     * and the hold is deleted in the same transaction, so nobody can take the time in between.
     */
    async bookInTransaction<T>(
      request: { exams: readonly string[]; clinicSlug: string; startsAt: string; holdId?: string | undefined },
      steps: {
        prepare(tx: Queryable): Promise<{
          bookingKey: string;
          patientId: string;
          status: 'BOOKED' | 'PENDING';
          walkInExam: unknown;
          staffBooking: boolean;
          freedIds: string[];
        }>;
        finish(tx: Queryable, booked: { rows: WrittenRow[]; clinic: ClinicRow; exams: ExamRow[]; providerName: string }): Promise<T>;
      },
    ): Promise<T> {
      const { catalogue: cached, index } = await catalogue();
      const { exams, modalityId, durationMinutes } = bookableExams(cached, request.exams);
      const clinic = clinicBySlug(cached, request.clinicSlug);
      const start = parseInstant(request.startsAt);
      const now = clock.now();
      const candidates = index.candidates(clinic.id, modalityId, durationMinutes, start, now.getTime());
      if (candidates.scheduled.length === 0) throw notOffered();
      const slots = consecutive(exams, start);
      const end = start + durationMinutes * MINUTE;
      const heldResource = request.holdId === undefined ? null : await ownHoldResource(request.holdId, clinic.id, slots, now.getTime());
      const resources = heldResource === null ? candidates.free : [heldResource, ...candidates.free.filter((id) => id !== heldResource)];
      let written;
      try {
        written = await onFirstFreeResource(resources, async (tx, resourceId) => {
          const prepared = await steps.prepare(tx);
          const released =
            resourceId === heldResource && request.holdId !== undefined ? await bookingWrites.deleteHold(tx, request.holdId) : [];
          const expired = [...released, ...(await bookingWrites.deleteExpiredHolds(tx, resourceId, new Date(start), new Date(end), now))];
          const rows = await bookingWrites.insertAppointments(tx, {
            bookingKey: prepared.bookingKey,
            patientId: prepared.patientId,
            clinicId: clinic.id,
            resourceId,
            status: prepared.status,
            walkInExam: prepared.walkInExam ?? undefined,
            staffBooking: prepared.staffBooking,
            slots,
          });
          const result = await steps.finish(tx, { rows, clinic, exams, providerName: cached.providerName });
          const bumps = 1 + (expired.length > 0 ? 1 : 0) + (prepared.freedIds.length > 0 ? 1 : 0);
          return {
            removed: [...expired, ...prepared.freedIds],
            rows,
            result,
            written: { version: await bookingWrites.availabilityVersion(tx), bumps },
          };
        });
      } catch (error) {
        if (sqlState(error) === DEADLOCK_DETECTED) throw await slotTaken(clinic, modalityId, durationMinutes, start);
        throw error;
      }
      if (written === null) throw await slotTaken(clinic, modalityId, durationMinutes, start);
      store.applyCommitted(busyEntries(written.rows, null), written.removed, written.written);
      return written.result;
    },

    async createBookingRequest(idempotencyKey: string, request: BookingRequestCreate): Promise<BookingRequestCreateResponse> {
      const { catalogue: cached } = await catalogue();
      const clinic = request.clinicSlug === undefined ? null : clinicBySlug(cached, request.clinicSlug);
      const timeZone = clinic?.time_zone ?? DEFAULT_PATIENT_ZONE;
      if (request.patient.dateOfBirth > localDate(clock.now(), timeZone)) {
        throw validationError('patient/dateOfBirth', PATIENT_MESSAGES.dateOfBirthFuture);
      }
      const requestHash = hashRequest(request);
      const replayed = await replay<BookingRequestCreateResponse>('booking_request', idempotencyKey, requestHash);
      if (replayed !== null) return replayed;

      // Issue 5: answers whose outcome is CREATE_BOOKING_REQUEST turn bookable exams into requests.
      const requestedByAnswers =
        request.questionnaireKey !== undefined && (await answersAskForRequest(request.questionnaireKey, request.exams));
      const planned = request.exams.map((slug) => {
        const exam = cached.examsBySlug.get(slug);
        let errorMessage: string | null = null;
        if (exam === undefined) errorMessage = `We could not find the exam '${slug}'.`;
        else if (!exam.enquiry_only && !requestedByAnswers)
          errorMessage = `${exam.name} can be booked online; please choose a time for it instead.`;
        else if (clinic !== null && !clinic.modality_ids.includes(exam.modality_id))
          errorMessage = `${exam.name} is not offered at ${clinic.name}.`;
        else if (exam.medicare_required && request.patient.medicareNumber === undefined) errorMessage = PATIENT_MESSAGES.medicareRequired;
        return { slug, exam, errorMessage, requestSlug: errorMessage === null ? randomToken() : null };
      });
      const results: BookingRequestCreateResponse['results'] = planned.map((item) =>
        item.errorMessage === null
          ? { examSlug: item.slug, success: true, ...(item.requestSlug === null ? {} : { slug: item.requestSlug }) }
          : { examSlug: item.slug, success: false, errorMessage: item.errorMessage },
      );
      const firstError = planned.find((item) => item.errorMessage !== null)?.errorMessage;
      if (planned.every((item) => item.errorMessage !== null)) {
        throw badRequest(firstError ?? 'No booking request could be created.', { results });
      }
      const bookingKey = randomToken();
      const response: BookingRequestCreateResponse = { bookingKey, results };
      const now = clock.now();
      try {
        await db.transaction(async (tx) => {
          await applyQuestionnaireAnswers(tx, request.questionnaireKey, {
            examSlugs: planned.flatMap((item) => (item.requestSlug === null ? [] : [item.slug])),
            owner: 'BOOKING_REQUEST',
            bookingKey,
            now,
            hasMedicareNumber: request.patient.medicareNumber !== undefined,
            validationCode: request.validationCode,
          });
          const patientId = await bookingWrites.insertPatient(tx, request.patient);
          for (const item of planned) {
            if (item.exam === undefined || item.requestSlug === null) continue;
            await bookingWrites.insertBookingRequest(tx, {
              slug: item.requestSlug,
              bookingKey,
              examId: item.exam.id,
              clinicId: clinic?.id ?? null,
              patientId,
              patientNotes: request.patientNotes ?? '',
            });
          }
          await bookingWrites.audit(tx, {
            actor: 'patient',
            action: 'booking_request.created',
            subjectType: 'booking_request',
            subjectId: planned.flatMap((item) => (item.requestSlug === null ? [] : [item.exam?.slug ?? ''])).join(','),
            details: { clinic: clinic?.slug ?? null, created: results.filter((result) => result.success).length },
          });
          await bookingWrites.insertIdempotency(tx, {
            scope: 'booking_request',
            key: idempotencyKey,
            requestHash,
            statusCode: 201,
            response,
            now,
          });
        });
      } catch (error) {
        if (sqlState(error) === UNIQUE_VIOLATION) {
          const winner = await replay<BookingRequestCreateResponse>('booking_request', idempotencyKey, requestHash);
          if (winner !== null) return winner;
        }
        throw error;
      }
      return response;
    },
  };
}

export type BookingService = ReturnType<typeof createBookingService>;
