import { createHash } from 'node:crypto';
import { PATIENT_MESSAGES, type AppointmentCreateRequest, type AppointmentCreateResponse } from '@contract/api/booking';
import type { Database, Queryable } from '../../db/connection';
import { DEADLOCK_DETECTED, sqlState, UNIQUE_VIOLATION } from '../../db/sql';
import type { Clock } from '../../platform/clock';
import { AppError, appError, validationError } from '../../platform/errors';
import type { IdempotencyRepository } from '../../platform/idempotency-repository';
import { randomToken } from '../../platform/ids';
import { hashRequest } from '../../platform/request-hash';
import { localDate } from '../../platform/time-zone';
import { availabilityVersion, type AvailabilityStore } from '../availability/public';
import { confirmationClinic, queueBookingConfirmation } from '../notifications/public';
import { applyQuestionnaireAnswers, auditScreeningRefusal } from '../questionnaires/public';
import { callerActor, type BookingCaller } from './booking-caller';
import type { Hl7Outbox } from '../../platform/hl7/hl7-outbox';
import type { BookingClient, BookingLimiter } from './booking-limits';
import { bookableExams, clinicBySlug, type Catalogue } from './catalogue';
import { busyEntries, matchHold, retryOnDeadlock, type Placement, type ResourceBooker } from './first-free-resource';
import type { BookingRepository, ClinicRow, ExamRow, WrittenRow } from './repository';
import { consecutive, MINUTE, parseInstant } from './slots';
import { withKnownWalkInExam } from './walk-in-exam';
import { bookingPreparation } from './preparation';
import { checkFormDetails, storeFormDetails } from './form-details';
import { createBookingRecords } from './booking-records-repository';

/**
 * Booking a time: a new booking (createAppointment) and a booking written inside another
 * module's steps (bookInTransaction, for reschedule and change). Both take the time through
 * bookOnFirstFree and check a hold with matchHold.
 */

export interface AppointmentWritesDeps {
  db: Database;
  repository: BookingRepository;
  idempotency: IdempotencyRepository;
  store: AvailabilityStore;
  clock: Clock;
  catalogue: Catalogue;
  booker: ResourceBooker;
  publicUrl: string;
  limiter: BookingLimiter;
  /** The RIS's HL7 messages (SIU^S12 for each appointment booked), queued in the booking's transaction. */
  hl7: Hl7Outbox;
  /**
   * Opens the screening review of a booking held ON_HOLD, in its transaction (screening-reviews'
   * openScreeningReview, given by the composition root: that module builds on appointments, which
   * builds on booking, so booking may not import it).
   */
  openReview: OpenScreeningReview;
}

export type OpenScreeningReview = (
  tx: Queryable,
  booking: { bookingKey: string; firstStartMs: number; now: Date; reason: string | null },
) => Promise<void>;

/** What bookInTransaction's caller writes around the insert. */
export interface BookingSteps<T> {
  /** Locks and moves the old appointments away (at most one UPDATE of appointment); answers what to insert. */
  prepare(tx: Queryable): Promise<{
    bookingKey: string;
    patientId: string;
    status: 'BOOKED' | 'PENDING';
    walkInExam: unknown;
    staffBooking: boolean;
    freedIds: string[];
  }>;
  finish(tx: Queryable, booked: { rows: WrittenRow[]; clinic: ClinicRow; exams: ExamRow[]; providerName: string }): Promise<T>;
}

/** Stands in for queueBookingConfirmation when the address has had its mails for the day. */
const skipConfirmation = (): Promise<void> => Promise.resolve();

/** The staff-only flags a request asked for that this caller may not set. */
function ignoredStaffFlags(request: AppointmentCreateRequest, caller: BookingCaller): string[] {
  if (caller.kind !== 'patient') return [];
  return (['staffBooking', 'pending'] as const).filter((flag) => request[flag] === true);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function createAppointmentWrites(deps: AppointmentWritesDeps) {
  const { db, repository, idempotency, store, clock, catalogue, booker, limiter } = deps;

  function checkPatient(patient: AppointmentCreateRequest['patient'], exams: readonly ExamRow[], timeZone: string): void {
    if (patient.dateOfBirth > localDate(clock.now(), timeZone)) {
      throw validationError('patient/dateOfBirth', PATIENT_MESSAGES.dateOfBirthFuture);
    }
    if (patient.medicareNumber === undefined && exams.some((exam) => exam.medicare_required)) {
      throw validationError('patient/medicareNumber', PATIENT_MESSAGES.medicareRequired);
    }
  }

  return {
    /** The answer a booking with this Idempotency-Key and request already got, or null (a new request). */
    async replayAppointment(idempotencyKey: string, asked: AppointmentCreateRequest): Promise<AppointmentCreateResponse | null> {
      const request = await withKnownWalkInExam(repository, asked);
      return idempotency.replay<AppointmentCreateResponse>('appointment', idempotencyKey, hashRequest(request), 'booking');
    },

    async createAppointment(
      idempotencyKey: string,
      asked: AppointmentCreateRequest,
      caller: BookingCaller,
      client: BookingClient,
    ): Promise<AppointmentCreateResponse> {
      // Only a walk-in exam the provider lists, with its own minutes (docs/rules/booking.md#walk-ins).
      const request = await withKnownWalkInExam(repository, asked);
      const { catalogue: cached, index } = await catalogue.load();
      const { exams, modalityId, durationMinutes } = bookableExams(cached, request.exams);
      const clinic = clinicBySlug(cached, request.clinicSlug);
      checkPatient(request.patient, exams, clinic.time_zone);
      // Insurance, ethnicity and practice against the provider's lists: a bad answer is a 400 before anything is written.
      const formDetails = await checkFormDetails(db, request.formDetails, request.patient.medicareNumber !== undefined);
      const start = parseInstant(request.startsAt);
      const requestHash = hashRequest(request);
      const replay = (): Promise<AppointmentCreateResponse | null> =>
        idempotency.replay<AppointmentCreateResponse>('appointment', idempotencyKey, requestHash, 'booking');
      const replayed = await replay();
      if (replayed !== null) return replayed;
      // Counted once the request is valid and new: a retry answered from the idempotency record is not.
      await limiter.admitBooking(client, request.patient);

      const now = clock.now();
      const placement: Placement = { clinic, modalityId, durationMinutes, start, now };
      const ignoredFlags = ignoredStaffFlags(request, caller);
      const staffBooking = caller.kind === 'staff' && request.staffBooking === true;
      // The staff member who booked on the patient's behalf (docs/rules/booking.md#staff-bookings).
      const bookedBy = caller.kind === 'staff' ? { subject: caller.subject, username: caller.username } : null;
      // A screening review turns it ON_HOLD inside the booking's transaction (finish).
      const insertedStatus = caller.kind === 'staff' && request.pending === true ? 'PENDING' : 'BOOKED';
      let status: AppointmentCreateResponse['status'] = insertedStatus;
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

      /** The booking's audit rows: that it was made, by which staff member, and staff flags a patient's request carried (ignored). */
      const auditCreated = async (tx: Queryable, rows: readonly WrittenRow[]): Promise<void> => {
        const actor = caller.kind === 'patient' ? 'patient' : caller.kind;
        const subjectId = rows.map((row) => row.id).join(',');
        await repository.audit(
          {
            actor,
            action: 'appointment.created',
            subjectType: 'appointment',
            subjectId,
            details: { clinic: clinic.slug, exams: exams.map((exam) => exam.slug), status, viaHold: request.holdId !== undefined },
          },
          tx,
        );
        if (caller.kind === 'staff') {
          await repository.audit(
            {
              actor: caller.staffRef,
              action: 'appointment.booked_by_staff',
              subjectType: 'appointment',
              subjectId,
              details: { username: caller.username, status },
            },
            tx,
          );
        } else if (caller.kind === 'system') {
          await repository.audit(
            {
              actor: callerActor(caller),
              action: 'appointment.booked_by_system',
              subjectType: 'appointment',
              subjectId,
              details: { status },
            },
            tx,
          );
        } else if (ignoredFlags.length > 0) {
          await repository.audit(
            {
              actor: caller.actor,
              action: 'appointment.staff_flags_ignored',
              subjectType: 'appointment',
              subjectId,
              details: {
                flags: ignoredFlags,
                client: caller.clientRef,
                ...(caller.staffRoles === undefined ? {} : { staffRoles: caller.staffRoles }),
              },
            },
            tx,
          );
        }
      };

      /** Everything after the time is secured: patient, mail, audit, the idempotency record. */
      const finish = async (tx: Queryable, rows: readonly WrittenRow[]): Promise<AppointmentCreateResponse> => {
        // Answers that deny the booking roll it back (409); otherwise they move to it.
        const { review } = await applyQuestionnaireAnswers(tx, request.questionnaireKey, {
          examSlugs: request.exams,
          owner: 'APPOINTMENT',
          bookingKey,
          now,
          hasMedicareNumber: patient.medicareNumber !== undefined,
          validationCode: request.validationCode,
        });
        // Answers a radiographer should judge: the time is held ON_HOLD until the review ends (docs/rules/screening-review.md).
        status = review === null ? insertedStatus : 'ON_HOLD';
        if (review !== null) {
          await createBookingRecords(tx).setAppointmentStatus(
            rows.map((row) => row.id),
            status,
            now,
            tx,
          );
          await deps.openReview(tx, { bookingKey, firstStartMs: start, now, reason: review.reason });
        }
        await storeFormDetails(tx, { bookingKey, owner: 'APPOINTMENT', now }, formDetails);
        const response = respond(rows);
        // After the answers moved: the preparation knows the screening was done online.
        const preparation = await bookingPreparation(tx, bookingKey);
        // Past the day's cap for this address the booking stands, without another mail.
        const mailAllowed = await limiter.confirmationMailAllowed(tx, patient.email);
        if (!mailAllowed) {
          await repository.audit(
            {
              actor: 'system',
              action: 'booking_confirmation.capped',
              subjectType: 'appointment',
              subjectId: rows.map((row) => row.id).join(','),
              details: { capPerDay: limiter.confirmationMailCap },
            },
            tx,
          );
        }
        await (mailAllowed ? queueBookingConfirmation : skipConfirmation)(
          tx,
          {
            bookingKey,
            patient: { title: patient.title, firstName: patient.firstName, lastName: patient.lastName, email: patient.email },
            clinic: confirmationClinic(clinic),
            appointments: exams.map((exam, position) => ({
              examName: exam.name,
              modalityName: exam.modality_name,
              startsAt: slots[position]?.start.toISOString() ?? new Date(start).toISOString(),
              endsAt: slots[position]?.end.toISOString() ?? new Date(end).toISOString(),
              ...((preparation.get(exam.slug) ?? exam.preparation_notes) === ''
                ? {}
                : { preparationNotes: preparation.get(exam.slug) ?? exam.preparation_notes }),
            })),
            ...(request.walkInExam === undefined ? {} : { walkInExam: request.walkInExam }),
            staffBooking,
            pending: status !== 'BOOKED',
            ...(review === null ? {} : { screeningReview: review.reason ?? '' }),
          },
          { publicUrl: deps.publicUrl, providerName: cached.providerName, clock },
        );
        await auditCreated(tx, rows);
        await deps.hl7.queue(
          tx,
          'S12',
          rows.map((row) => row.id),
          { now },
        );
        await idempotency.insert({ scope: 'appointment', key: idempotencyKey, requestHash, statusCode: 201, response, now }, tx);
        return response;
      };

      const patientInput = { ...patient };
      const common = { walkInExam: request.walkInExam, staffBooking, bookedBy };

      /** The live hold of exactly this booking, made the appointments in place; null when it is gone. */
      const confirmHeld = async (holdId: string): Promise<AppointmentCreateResponse | null> => {
        const confirmed = await retryOnDeadlock(() =>
          db.transaction(async (tx) => {
            const hold = matchHold(await repository.heldRows(holdId, tx), clinic.id, slots, now.getTime());
            if (hold.kind === 'none') return null;
            if (hold.kind === 'mismatch') {
              throw validationError('holdId', 'The held time does not match this booking. Please choose the time again.');
            }
            const patientId = await repository.insertPatient(patientInput, tx);
            const rows = await repository.confirmHold(
              { holdId, bookingKey, patientId, status: insertedStatus, createdAt: now, ...common },
              tx,
            );
            const response = await finish(tx, rows);
            return { rows, response, written: { version: await availabilityVersion(tx), bumps: 1 } };
          }),
        );
        if (confirmed === null) return null;
        store.applyCommitted(busyEntries(confirmed.rows, null), [], confirmed.written);
        return confirmed.response;
      };

      /** A booking that failed: a concurrent retry with the same key may have won (its answer), else why it failed. */
      const recover = async (error: unknown): Promise<AppointmentCreateResponse> => {
        // A concurrent retry with the same key may have won: answer what it answered.
        if (error instanceof AppError && (error.code === 'slot_taken' || error.code === 'hold_expired')) {
          const winner = await replay();
          if (winner !== null) return winner;
        }
        if (sqlState(error) === UNIQUE_VIOLATION) {
          const winner = await replay();
          if (winner !== null) return winner;
          throw appError('conflict', 409, 'This booking is already being processed. Please wait a moment.');
        }
        // Still a deadlock victim after the retries: someone else is taking this time.
        if (sqlState(error) === DEADLOCK_DETECTED) throw await booker.slotTaken(placement, request.holdId !== undefined);
        await auditScreeningRefusal(db, error, {
          actor: callerActor(caller),
          kind: 'appointment',
          examSlugs: request.exams,
          subjectId: null,
        });
        throw error;
      };

      try {
        // 1. A live hold for exactly this booking becomes the appointments in place.
        if (request.holdId !== undefined) {
          const confirmed = await confirmHeld(request.holdId);
          if (confirmed !== null) return confirmed;
        }

        // 2. No (live) hold: book the time directly if some resource is still free. Expired
        // holds (the patient's own included) do not count as busy in the index.
        return await booker.bookOnFirstFree(
          placement,
          booker.freeResources(index, placement),
          {
            insert: async (tx, resourceId) => {
              const patientId = await repository.insertPatient(patientInput, tx);
              const rows = await repository.insertAppointments(
                { bookingKey, patientId, clinicId: clinic.id, resourceId, status: insertedStatus, slots, createdAt: now, ...common },
                tx,
              );
              return { rows, result: await finish(tx, rows) };
            },
          },
          { expiredHold: request.holdId !== undefined },
        );
      } catch (error) {
        return await recover(error);
      }
    },

    /**
     * Moves a booking's appointments (in exam order) to another time at their clinic, keeping their
     * ids: the provider's system moving them (its RIS's SIU^S13). The same offered-time and
     * free-resource rules as a booking, and the exclusion constraint decides races; `prepare`
     * locks and checks the rows, `finish` writes what goes with the move, all in one transaction
     * per resource tried. Throws slot_taken (with fresh times) when no resource takes it.
     */
    async moveInPlace<T>(
      request: { appointmentIds: readonly string[]; exams: readonly string[]; clinicSlug: string; startsAt: string },
      steps: {
        prepare(tx: Queryable): Promise<void>;
        finish(tx: Queryable, moved: { rows: WrittenRow[]; clinic: ClinicRow; providerName: string }): Promise<T>;
      },
    ): Promise<T> {
      const { catalogue: cached, index } = await catalogue.load();
      const { exams, modalityId, durationMinutes } = bookableExams(cached, request.exams);
      const clinic = clinicBySlug(cached, request.clinicSlug);
      const placement: Placement = { clinic, modalityId, durationMinutes, start: parseInstant(request.startsAt), now: clock.now() };
      const slots = consecutive(exams, placement.start);
      return booker.bookOnFirstFree(placement, booker.freeResources(index, placement), {
        prepare: async (tx) => {
          await steps.prepare(tx);
          return { freed: request.appointmentIds, released: [], movedInPlace: true };
        },
        insert: async (tx, resourceId) => {
          const rows = await repository.moveAppointments(request.appointmentIds, resourceId, slots, tx);
          return { rows, result: await steps.finish(tx, { rows, clinic, providerName: cached.providerName }) };
        },
      });
    },

    /**
     * Books exams at a time with the same exam, clinic, offered-time and free-resource rules as
     * createAppointment, inside steps the caller writes (reschedule and change). Per attempt, in
     * ONE transaction: `prepare`, the insert, then `finish`; when the exclusion constraint
     * refuses the insert everything rolls back, so the old appointments keep their time.
     * Throws slot_taken (with fresh times) when every resource was taken.
     * With the caller's live hold on exactly these exams and times, its resource is tried first
     * and the hold is deleted in the same transaction, so nobody can take the time in between.
     */
    async bookInTransaction<T>(
      request: { exams: readonly string[]; clinicSlug: string; startsAt: string; holdId?: string | undefined },
      steps: BookingSteps<T>,
    ): Promise<T> {
      const { catalogue: cached, index } = await catalogue.load();
      const { exams, modalityId, durationMinutes } = bookableExams(cached, request.exams);
      const clinic = clinicBySlug(cached, request.clinicSlug);
      const placement: Placement = { clinic, modalityId, durationMinutes, start: parseInstant(request.startsAt), now: clock.now() };
      const free = booker.freeResources(index, placement);
      const slots = consecutive(exams, placement.start);
      const { holdId } = request;
      const hold = holdId === undefined ? null : matchHold(await repository.heldRows(holdId), clinic.id, slots, placement.now.getTime());
      const heldResource = hold?.kind === 'match' ? hold.resourceId : null;
      const resources = heldResource === null ? free : [heldResource, ...free.filter((id) => id !== heldResource)];
      let prepared: Awaited<ReturnType<BookingSteps<T>['prepare']>> | undefined;
      return booker.bookOnFirstFree(placement, resources, {
        prepare: async (tx, resourceId) => {
          prepared = await steps.prepare(tx);
          const released = resourceId === heldResource && holdId !== undefined ? await repository.deleteHold(holdId, tx) : [];
          return { freed: prepared.freedIds, released };
        },
        insert: async (tx, resourceId) => {
          if (prepared === undefined) throw new Error('bookInTransaction: prepare did not run');
          const rows = await repository.insertAppointments(
            {
              bookingKey: prepared.bookingKey,
              patientId: prepared.patientId,
              clinicId: clinic.id,
              resourceId,
              status: prepared.status,
              walkInExam: prepared.walkInExam ?? undefined,
              staffBooking: prepared.staffBooking,
              slots,
              createdAt: placement.now,
            },
            tx,
          );
          return { rows, result: await steps.finish(tx, { rows, clinic, exams, providerName: cached.providerName }) };
        },
      });
    },
  };
}
