import type {
  AppointmentSummary,
  CancelRequest,
  CanChangeResponse,
  ConsentForm,
  ConsentFormsResponse,
  DetailsChangeRequest,
  RequestReschedule,
  RescheduleRequest,
  SignConsentForm,
} from '@contract/api/appointments';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { AppError, appError, notFound, tooManyRequests, validationError } from '../../platform/errors';
import { sanitizeConfiguredHtml } from '../../platform/html-sanitizer';
import { localDate } from '../../platform/time-zone';
import { hashRequest } from '../../platform/request-hash';
import { sqlState, UNIQUE_VIOLATION } from '../../db/sql';
import { createIdempotencyRepository } from '../../platform/idempotency-repository';
import type { AvailabilityStore } from '../availability/public';
import type { BookingService } from '../booking/public';
import { queueAppointmentNotice } from '../notifications/public';
import { applyAnswersToChange, auditScreeningRefusal } from '../questionnaires/public';
import { bookingKeyRef } from '../../platform/security-audit';
import { CHANGEABLE, changeNotAllowed, currentRows, nothingLive, refusal, type ChangeAction } from './change-rules';
import { createStatusChanges } from './status-changes';
import { createAppointmentsRepository, type BookingRow } from './repository';
import { createSummaries } from './summary';
import { noHl7Outbox, type Hl7Outbox } from '../../platform/hl7/hl7-outbox';
import { bookingCalendar, type CalendarFile } from './calendar';
import { confirmNewTime } from './new-time-confirmation';
import { signaturePng as drawnSignature } from './signature-png';

/**
 * Appointment self-service (docs/rules/appointments.md; the rules in change-rules.ts). Every change re-reads the rows
 * with FOR UPDATE inside its transaction and applies the rules again there: no two changes pass on a stale read.
 */

export interface AppointmentsServiceDeps {
  db: Database;
  clock: Clock;
  booking: BookingService;
  store: AvailabilityStore;
  publicUrl: string;
  /** Records an address as unsubscribed, inside the caller's transaction (the unsubscribe module's one record); true when it changed. */
  unsubscribeAddress: (address: string, now: Date, tx: Queryable) => Promise<boolean>;
  /** The RIS's HL7 messages (SIU^S15 for a cancellation); default none. */
  hl7?: Hl7Outbox;
}

/** No window: a request stays open until staff handle it (usually within a day), so the 429 says a day. */
export const DETAILS_REQUESTS_RETRY_SECONDS = 86_400;
/** Open details change requests one booking may have waiting for staff (more is refused with 429). */
export const MAX_OPEN_DETAILS_REQUESTS = 5;

export function createAppointmentsService(deps: AppointmentsServiceDeps) {
  const { db, clock, booking, store } = deps;
  const repository = createAppointmentsRepository(db);
  const idempotency = createIdempotencyRepository(db);

  async function lock(tx: Queryable, bookingKey: string): Promise<BookingRow[]> {
    const rows = await repository.lockBookingRows(bookingKey, tx);
    if (rows.length === 0) throw notFound('We could not find this appointment.');
    return rows;
  }

  const { load, summaryOf } = createSummaries(repository, clock);

  const { audit, moveLive, cancelLive, freed } = createStatusChanges({
    repository,
    clock,
    store,
    publicUrl: deps.publicUrl,
    ...(deps.hl7 === undefined ? {} : { hl7: deps.hl7 }),
  });

  async function consentFormsOf(bookingKey: string): Promise<ConsentFormsResponse> {
    const rows = currentRows(await load(db, bookingKey));
    const settings = await repository.settings();
    const forms = await repository.consentForms(bookingKey, [...new Set(rows.map((row) => row.modality_id))]);
    const appointmentConsentForms: ConsentForm[] = forms.map((form) => ({
      id: form.id,
      title: form.title,
      html: sanitizeConfiguredHtml(form.html),
      signed: form.signed_name !== null,
      signedName: form.signed_name,
      signedAt: form.signed_ms === null ? null : new Date(form.signed_ms).toISOString(),
    }));
    return {
      appointmentConsentForms,
      notifyPatient: settings.consent_notify_patient && appointmentConsentForms.some((form) => !form.signed),
    };
  }

  return {
    summary: (bookingKey: string): Promise<AppointmentSummary> => summaryOf(db, bookingKey),

    /** The browser that booked may read its receipt's booking (booking-access/receipt.ts). */
    receipts: booking.receipts,

    /** The confirmation: the booking as its page shows it (the same answer as summary). */
    confirmation: (bookingKey: string): Promise<AppointmentSummary> => summaryOf(db, bookingKey),

    /** The booking's coming appointments as an .ics file (calendar.ts). */
    async calendar(bookingKey: string, locale?: string): Promise<CalendarFile> {
      const summary = await summaryOf(db, bookingKey);
      const providerName = (await repository.providerName()) ?? 'Radiology';
      return bookingCalendar(summary, { publicUrl: deps.publicUrl, providerName, clock, ...(locale === undefined ? {} : { locale }) });
    },

    async canChange(bookingKey: string, action: ChangeAction): Promise<CanChangeResponse> {
      const rows = await load(db, bookingKey);
      const settings = await repository.settings();
      const reason = refusal(rows, settings, action, clock.now().getTime());
      return { canChange: reason === null, reason, priorMinutes: settings.prior_minutes };
    },

    async cancel(bookingKey: string, request: CancelRequest): Promise<AppointmentSummary> {
      const settings = await repository.settings();
      const reasons = await repository.cancelReasons();
      const label = request.reason?.label;
      if (label !== undefined && !reasons.includes(label)) {
        throw validationError('reason/label', 'Please choose one of the listed reasons.');
      }
      if (label === undefined && reasons.length > 0 && !settings.cancel_questionnaire_required) {
        throw validationError('reason', 'Please choose a reason for cancelling.');
      }
      const { ids, version } = await db.transaction(async (tx) => {
        const rows = await lock(tx, bookingKey);
        const now = clock.now();
        const why = refusal(rows, settings, 'CANCEL', now.getTime());
        if (why !== null) throw changeNotAllowed('CANCEL', why, settings.prior_minutes);
        const live = currentRows(rows).filter((row) => CHANGEABLE.has(row.status));
        return cancelLive(
          tx,
          bookingKey,
          live,
          { now, reasonLabel: label ?? null, note: request.note === undefined || request.note === '' ? null : request.note },
          { from: live[0]?.status, withReason: label !== undefined, withNote: (request.note ?? '') !== '' },
          label ?? null,
        );
      });
      freed(ids, version);
      return summaryOf(db, bookingKey);
    },

    async reschedule(bookingKey: string, idempotencyKey: string, request: RescheduleRequest): Promise<AppointmentSummary> {
      const requestHash = hashRequest({ bookingKey, ...request });
      const replay = (): Promise<AppointmentSummary | null> =>
        idempotency.replay<AppointmentSummary>('reschedule', idempotencyKey, requestHash, 'change');
      const replayed = await replay();
      if (replayed !== null) return replayed;

      const settings = await repository.settings();
      const before = await load(db, bookingKey);
      const why = refusal(before, settings, 'RESCHEDULE', clock.now().getTime());
      if (why !== null) throw changeNotAllowed('RESCHEDULE', why, settings.prior_minutes);
      const currentExams = currentRows(before)
        .filter((row) => CHANGEABLE.has(row.status))
        .map((row) => row.exam_slug);
      const exams = request.exams ?? currentExams;
      if (request.context === 'RESCHEDULED' && exams.join(',') !== currentExams.join(',')) {
        throw validationError('exams', 'A reschedule keeps the same exams; use the change context to change them.');
      }
      const toStatus = request.context;
      // What prepare moved away (per attempt: a retry on another resource starts again).
      let moved: BookingRow[] = [];

      try {
        return await booking.bookInTransaction(
          { exams, clinicSlug: request.clinicSlug, startsAt: request.startsAt, holdId: request.holdId },
          {
            prepare: async (tx) => {
              const rows = await lock(tx, bookingKey);
              const again = refusal(rows, settings, 'RESCHEDULE', clock.now().getTime());
              if (again !== null) throw changeNotAllowed('RESCHEDULE', again, settings.prior_minutes);
              const live = currentRows(rows).filter((row) => CHANGEABLE.has(row.status));
              const first = live[0] as BookingRow;
              moved = live;
              const freedIds = await repository.setStatus(
                live.map((row) => row.id),
                toStatus,
                clock.now(),
                tx,
              );
              // A booking still waiting for the clinic (PENDING) stays pending at its new time.
              const status = live.some((row) => row.status === 'PENDING') ? 'PENDING' : 'BOOKED';
              return { bookingKey, patientId: first.patient_id, status, walkInExam: first.walk_in_exam, staffBooking: false, freedIds };
            },
            finish: async (tx, booked) => {
              const now = clock.now();
              const oldLive = moved;
              // New exams need their screening answered (this booking's answers, or the key's for the new exams).
              if (toStatus === 'CHANGED') await applyAnswersToChange(tx, request.questionnaireKey, { bookingKey, examSlugs: exams, now });
              await repository.logChange(
                {
                  bookingKey,
                  action: toStatus === 'CHANGED' ? 'CHANGE' : 'RESCHEDULE',
                  fromStatus: oldLive[0]?.status ?? '',
                  toStatus,
                  details: {
                    from: {
                      clinic: oldLive[0]?.clinic_slug,
                      startsAt: oldLive[0] === undefined ? null : new Date(oldLive[0].starts_ms).toISOString(),
                      exams: currentExams,
                    },
                    to: { clinic: booked.clinic.slug, startsAt: new Date(booked.rows[0]?.starts_ms ?? 0).toISOString(), exams },
                  },
                  now,
                },
                tx,
              );
              // The RIS hears of a move as the old time cancelled and the new one booked: the new rows have ids of their own.
              const hl7 = deps.hl7 ?? noHl7Outbox;
              await hl7.queue(
                tx,
                'S15',
                oldLive.map((row) => row.id),
                { now, reason: toStatus === 'CHANGED' ? 'Changed by the patient' : 'Rescheduled by the patient' },
              );
              await hl7.queue(
                tx,
                'S12',
                booked.rows.map((row) => row.id),
                { now },
              );
              await audit(tx, toStatus === 'CHANGED' ? 'appointment.changed' : 'appointment.rescheduled', booked.rows, {
                clinic: booked.clinic.slug,
                exams,
                replaced: oldLive.map((row) => row.id),
              });
              const summary = await summaryOf(tx, bookingKey);
              await confirmNewTime(tx, { bookingKey, summary, clinic: booked.clinic, providerName: booked.providerName }, deps);
              await idempotency.insert(
                { scope: 'reschedule', key: idempotencyKey, requestHash, statusCode: 200, response: summary, now },
                tx,
              );
              return summary;
            },
          },
        );
      } catch (error) {
        // A concurrent retry with the same key may have won: answer what it answered.
        if (
          (error instanceof AppError && (error.code === 'slot_taken' || error.code === 'change_not_allowed')) ||
          sqlState(error) === UNIQUE_VIOLATION
        ) {
          const winner = await replay();
          if (winner !== null) return winner;
        }
        if (sqlState(error) === UNIQUE_VIOLATION)
          throw appError('conflict', 409, 'This change is already being processed. Please wait a moment.');
        await auditScreeningRefusal(db, error, {
          actor: 'patient',
          kind: 'change',
          examSlugs: exams,
          subjectId: bookingKeyRef(bookingKey),
        });
        throw error;
      }
    },

    async requestReschedule(bookingKey: string, request: RequestReschedule): Promise<AppointmentSummary> {
      const settings = await repository.settings();
      await db.transaction(async (tx) => {
        const rows = await lock(tx, bookingKey);
        const current = currentRows(rows);
        const live = current.filter((row) => CHANGEABLE.has(row.status));
        if (live.length === 0) throw changeNotAllowed('REQUEST_RESCHEDULE', nothingLive(current), settings.prior_minutes);
        const now = clock.now();
        const note = request.note === undefined || request.note === '' ? null : request.note;
        // Asking again without anything new changes nothing (a double click).
        if (note === null && live.every((row) => row.status === 'REQUEST_RESCHEDULE')) return;
        // REQUEST_RESCHEDULE keeps the slot (it is a live status) until the clinic moves it.
        await moveLive(
          tx,
          bookingKey,
          live,
          { action: 'REQUEST_RESCHEDULE', toStatus: 'REQUEST_RESCHEDULE', now, note },
          { action: 'appointment.reschedule_requested', details: { from: live[0]?.status, withNote: note !== null } },
        );
        await queueAppointmentNotice(tx, 'rescheduleRequest', bookingKey, live, { publicUrl: deps.publicUrl, clock });
      });
      return summaryOf(db, bookingKey);
    },

    async confirm(bookingKey: string): Promise<AppointmentSummary> {
      const settings = await repository.settings();
      await db.transaction(async (tx) => {
        const rows = await lock(tx, bookingKey);
        const current = currentRows(rows);
        const now = clock.now();
        // Confirming twice is harmless: the second answers the same summary and changes nothing.
        if (current.every((row) => row.status === 'CONFIRMED')) return;
        const live = current.filter((row) => CHANGEABLE.has(row.status));
        if (live.length === 0) throw changeNotAllowed('CONFIRM', nothingLive(current), settings.prior_minutes);
        if (!live.every((row) => row.status === 'BOOKED' && row.starts_ms > now.getTime()))
          throw changeNotAllowed('CONFIRM', 'OTHER', settings.prior_minutes);
        // Every live row is BOOKED here, so the change log says BOOKED -> CONFIRMED.
        await moveLive(
          tx,
          bookingKey,
          live,
          { action: 'CONFIRM', toStatus: 'CONFIRMED', now, confirm: true },
          { action: 'appointment.confirmed', details: {} },
        );
      });
      return summaryOf(db, bookingKey);
    },

    consentForms: (bookingKey: string): Promise<ConsentFormsResponse> => consentFormsOf(bookingKey),

    async signConsentForm(bookingKey: string, formId: string, request: SignConsentForm): Promise<ConsentForm> {
      const settings = await repository.settings();
      // Checked before anything is locked or written: a bad drawing is a 400 that changes nothing.
      const signaturePng = request.signaturePng === undefined ? null : await drawnSignature(request.signaturePng);
      await db.transaction(async (tx) => {
        const rows = currentRows(await lock(tx, bookingKey));
        const live = rows.filter((row) => CHANGEABLE.has(row.status) || row.status === 'CHECKED_IN');
        if (live.length === 0) throw changeNotAllowed('CONSENT', nothingLive(rows), settings.prior_minutes);
        const forms = await repository.consentForms(bookingKey, [...new Set(rows.map((row) => row.modality_id))], tx);
        if (!forms.some((form) => form.id === formId)) throw notFound('We could not find this consent form for your appointment.');
        const signature = { bookingKey, formId, signedName: request.signedName, signaturePng, now: clock.now() };
        if (await repository.signConsentForm(signature, tx))
          await audit(tx, 'consent_form.signed', rows, { form: formId, drawn: !!signaturePng });
      });
      const answer = await consentFormsOf(bookingKey);
      const form = answer.appointmentConsentForms.find((item) => item.id === formId);
      if (form === undefined) throw notFound('We could not find this consent form for your appointment.');
      return form;
    },

    async detailsChangeRequest(bookingKey: string, request: DetailsChangeRequest): Promise<{ id: string }> {
      const changes: Record<string, string> = {};
      for (const field of ['firstName', 'lastName', 'dateOfBirth', 'email', 'contactNumber', 'postcode'] as const) {
        const value = request[field];
        if (value !== undefined && value !== '') changes[field] = value;
      }
      const rows = await load(db, bookingKey);
      const first = rows[0] as BookingRow;
      if (changes.dateOfBirth !== undefined && changes.dateOfBirth > localDate(clock.now(), first.time_zone)) {
        throw validationError('dateOfBirth', 'Date of birth cannot be in the future.');
      }
      return db.transaction(async (tx) => {
        await repository.lockBookingRows(bookingKey, tx);
        if ((await repository.countOpenDetailsChangeRequests(bookingKey, tx)) >= MAX_OPEN_DETAILS_REQUESTS) {
          throw tooManyRequests(
            'You already have several change requests waiting for the clinic. Please call the clinic instead.',
            DETAILS_REQUESTS_RETRY_SECONDS,
          );
        }
        const note = request.note === undefined || request.note === '' ? null : request.note;
        const id = await repository.insertDetailsChangeRequest(
          {
            bookingKey,
            patientId: first.patient_id,
            changes,
            note,
            now: clock.now(),
          },
          tx,
        );
        await audit(tx, 'patient.details_change_requested', currentRows(rows), {
          request: id,
          fields: Object.keys(changes),
          withNote: note !== null,
        });
        return { id };
      });
    },

    async unsubscribe(bookingKey: string): Promise<AppointmentSummary> {
      await db.transaction(async (tx) => {
        const rows = currentRows(await lock(tx, bookingKey));
        const first = rows[0] as BookingRow;
        // The same record as the one-click link in every mail (docs/rules/appointments.md#unsubscribe);
        // a patient without an address has nothing to stop.
        if (!first.email_unsubscribed && first.email !== null && first.email.includes('@')) {
          const now = clock.now();
          await deps.unsubscribeAddress(first.email, now, tx);
          await repository.logChange({ bookingKey, action: 'UNSUBSCRIBE', fromStatus: first.status, toStatus: first.status, now }, tx);
          await audit(tx, 'patient.email_unsubscribed', rows, {});
        }
      });
      return summaryOf(db, bookingKey);
    },
  };
}

export type AppointmentsService = ReturnType<typeof createAppointmentsService>;
