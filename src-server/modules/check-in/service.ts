import type { CheckInForm, CheckInStatus } from '@contract/api/check-in';
import { compactMedicareNumber } from '@contract/medicare';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, conflict, notFound, validationError } from '../../platform/errors';
import { createHandoffRepository } from '../../platform/ris/handoff-repository';
import { localDate } from '../../platform/time-zone';
import type { BookingActor } from '../booking-access/public';
import { formDetailsOf } from '../booking/public';
import { createChecklist } from './checklist';
import { createCheckInRepository, type CheckInAppointmentRow, type CheckInSettingsRow, type ReferralPrefillRow } from './repository';
import { CHECK_IN_STATUSES, CHECK_IN_TEXTS, checkInState, checkInWindow, readiness } from './rules';

/**
 * Digital check-in (docs/rules/check-in.md): the status the page polls, prepare (the form, handed
 * to the clinic's RIS) and check in (after the RIS has the form; at once in simple mode). Each
 * hand-off is a durable row the RIS worker delivers (platform/ris/); the status is read from them.
 */

export interface CheckInServiceDeps {
  db: Database;
  clock: Clock;
}

const NOT_FOUND = 'This appointment was not found.';
/** At a kiosk a patient may still check in this long after the start (later: at the desk). */
export const KIOSK_LATE_MINUTES = 30;

function auditActor(actor: BookingActor): string {
  return actor.kind === 'staff' ? `staff:${actor.ref}` : 'patient';
}

/** The check-in form's starting values from the referral upload (docs/rules/check-in.md#prefill). */
function prefillOf(row: ReferralPrefillRow | null): CheckInStatus['prefill'] {
  if (row === null) return { dateOfReferral: null, referrer: null, referringDoctorName: null };
  const doctor = row.doctor;
  return {
    dateOfReferral: row.referralDate,
    referringDoctorName: row.referringDoctor,
    referrer:
      doctor === null
        ? null
        : {
            id: doctor.id,
            displayName: `Dr ${doctor.first_name} ${doctor.last_name}`,
            firstName: doctor.first_name,
            lastName: doctor.last_name,
            providerNumber: doctor.provider_number,
            practiceName: doctor.practice_name,
            city: doctor.city,
            postcode: doctor.postcode,
          },
  };
}

export function createCheckInService(deps: CheckInServiceDeps) {
  const { db, clock } = deps;
  const repository = createCheckInRepository(db);
  const handoffs = createHandoffRepository(db);
  const audit = createAuditLogRepository(db);
  const checklist = createChecklist(db, clock);

  async function appointmentOrThrow(bookingKey: string, appointmentId: string, tx: Queryable = db, lock = false) {
    const appointment = await repository.appointment(bookingKey, appointmentId, tx, lock);
    if (appointment === null) throw notFound(NOT_FOUND);
    return appointment;
  }

  /** A check-in without the form (at a kiosk, or in simple mode): no referral, Medicare number or gender. */
  async function insertFormlessCheckIn(appointmentId: string, channel: 'KIOSK' | 'DIGITAL', now: Date, tx: Queryable): Promise<void> {
    await repository.insert(
      {
        appointmentId,
        channel,
        referringDoctorId: null,
        referralDate: null,
        medicareNumber: null,
        medicareReference: null,
        gender: null,
        now,
      },
      tx,
    );
  }

  /** Each step of a check-in is audited on its appointment, with the channel it came by. */
  async function auditCheckIn(
    step: { actor: string; action: 'check_in.prepared' | 'check_in.requested'; channel: 'KIOSK' | 'DIGITAL' },
    appointmentId: string,
    now: Date,
    tx: Queryable,
  ): Promise<void> {
    await audit.record(
      {
        actor: step.actor,
        action: step.action,
        subjectType: 'appointment',
        subjectId: appointmentId,
        details: { channel: step.channel },
        now,
      },
      tx,
    );
  }

  async function statusOf(appointment: CheckInAppointmentRow, settings: CheckInSettingsRow, tx: Queryable = db): Promise<CheckInStatus> {
    const window = checkInWindow(new Date(appointment.starts_at), settings.prior_minutes, clock.now());
    const referral = await repository.referral(appointment.booking_key, tx);
    const rows = await handoffs.forAppointment(appointment.id, tx);
    const state = checkInState(rows, appointment.status);
    const prepare = rows.find((row) => row.kind === 'prepare_check_in');
    const checkIn = rows.find((row) => row.kind === 'check_in');
    return {
      appointmentSlug: appointment.id,
      enabled: settings.enabled && appointment.exam_check_in_enabled,
      priorMinutes: settings.prior_minutes,
      opensAt: window.opensAt.toISOString(),
      closesAt: window.closesAt.toISOString(),
      windowOpen: window.open,
      readiness: readiness({
        enabled: settings.enabled && appointment.exam_check_in_enabled,
        live: CHECK_IN_STATUSES.includes(appointment.status) || appointment.status === 'CHECKED_IN',
        referralRequired: appointment.referral_required,
        referralUploaded: referral.uploaded,
        referralTypeId: referral.documentTypeId,
      }),
      simpleMode: settings.simple_mode,
      showGenderSelection: settings.ask_gender,
      state,
      checkInPrepared: prepare !== undefined,
      checkInPreparedSent: prepare?.status === 'sent',
      checkInSent: checkIn?.status === 'sent',
      checkInSuccess: state === 'CHECKED_IN',
      prefill: prefillOf(await repository.referralPrefill(appointment.booking_key, tx)),
    };
  }

  /** Refuses a check-in that cannot start now: off, not live, out of its window, or not ready. */
  function assertCanStart(appointment: CheckInAppointmentRow, status: CheckInStatus): void {
    if (!status.readiness.ready) {
      throw appError('check_in_not_ready', 409, status.readiness.message ?? CHECK_IN_TEXTS.notLive, { readiness: status.readiness });
    }
    if (!status.windowOpen) {
      throw appError('check_in_window_closed', 409, CHECK_IN_TEXTS.outOfWindow(status.priorMinutes), {
        priorMinutes: status.priorMinutes,
        opensAt: status.opensAt,
      });
    }
    if (!CHECK_IN_STATUSES.includes(appointment.status)) throw appError('check_in_not_ready', 409, CHECK_IN_TEXTS.notLive);
  }

  // Every hand-off also carries the booking form's details (insurance, ethnicity, referring
  // practice; null when none were given): the desk's RIS registers the patient with them.
  function appointmentPayload(appointment: CheckInAppointmentRow) {
    return { id: appointment.id, examCode: appointment.exam_code, clinic: appointment.clinic_slug, startsAt: appointment.starts_at };
  }

  /** At the kiosk the patient is there: check-in opens with the same window and stays open KIOSK_LATE_MINUTES past the start. */
  function kioskWindow(appointment: CheckInAppointmentRow, settings: CheckInSettingsRow, now: Date): 'open' | 'not_yet' | 'closed' {
    const window = checkInWindow(new Date(appointment.starts_at), settings.prior_minutes, now);
    if (now < window.opensAt) return 'not_yet';
    return now.getTime() < window.closesAt.getTime() + KIOSK_LATE_MINUTES * 60_000 ? 'open' : 'closed';
  }

  return {
    /** For the kiosk's identity check: whether check-in at a kiosk can start for this appointment now. */
    async kioskAvailability(bookingKey: string, appointmentId: string): Promise<'open' | 'disabled' | 'not_yet'> {
      const appointment = await appointmentOrThrow(bookingKey, appointmentId);
      const settings = await repository.settings();
      if (!settings.enabled || !appointment.exam_check_in_enabled) return 'disabled';
      const window = kioskWindow(appointment, settings, clock.now());
      return window === 'open' ? 'open' : window === 'not_yet' ? 'not_yet' : 'disabled';
    },

    /**
     * Check-in at a lobby kiosk: the patient confirmed after the one-time code; no form (the desk
     * has the patient in front of it, and a missing referral is noted in the hand-off for the desk).
     */
    async kioskCheckIn(bookingKey: string, appointmentId: string, kioskName: string): Promise<CheckInStatus> {
      return db.transaction(async (tx) => {
        const appointment = await appointmentOrThrow(bookingKey, appointmentId, tx, true);
        const settings = await repository.settings(tx);
        const before = await statusOf(appointment, settings, tx);
        if (before.state !== 'NOT_STARTED' && before.state !== 'PREPARED') return before;
        if (!before.enabled || !CHECK_IN_STATUSES.includes(appointment.status)) {
          throw appError('check_in_not_ready', 409, before.enabled ? CHECK_IN_TEXTS.notLive : CHECK_IN_TEXTS.disabled);
        }
        if (kioskWindow(appointment, settings, clock.now()) !== 'open') {
          throw appError('check_in_window_closed', 409, CHECK_IN_TEXTS.outOfWindow(settings.prior_minutes), {
            priorMinutes: settings.prior_minutes,
            opensAt: before.opensAt,
          });
        }
        const now = clock.now();
        await insertFormlessCheckIn(appointmentId, 'KIOSK', now, tx);
        await handoffs.enqueue(
          {
            appointmentId,
            kind: 'check_in',
            payload: {
              channel: 'KIOSK',
              kiosk: kioskName,
              appointment: appointmentPayload(appointment),
              bookingDetails: await formDetailsOf(tx, appointment.booking_key),
              referralUploaded: before.readiness.requiredReferralUploaded,
              checkedInAt: now.toISOString(),
            },
          },
          now,
          tx,
        );
        await auditCheckIn({ actor: 'patient', action: 'check_in.requested', channel: 'KIOSK' }, appointmentId, now, tx);
        return statusOf(appointment, settings, tx);
      });
    },

    /** What is still to do before the scan (checklist.ts). */
    checklist: (bookingKey: string, appointmentId: string) => checklist.of(bookingKey, appointmentId),

    async status(bookingKey: string, appointmentId: string): Promise<CheckInStatus> {
      const appointment = await appointmentOrThrow(bookingKey, appointmentId);
      return statusOf(appointment, await repository.settings());
    },

    /** The form: checked, written once, and handed to the RIS (one hand-off however often it is sent). */
    async prepare(bookingKey: string, appointmentId: string, form: CheckInForm, actor: BookingActor): Promise<CheckInStatus> {
      return db.transaction(async (tx) => {
        const appointment = await appointmentOrThrow(bookingKey, appointmentId, tx, true);
        const settings = await repository.settings(tx);
        const before = await statusOf(appointment, settings, tx);
        if (before.state !== 'NOT_STARTED') return before;
        assertCanStart(appointment, before);
        if (settings.simple_mode) throw conflict(CHECK_IN_TEXTS.simpleMode);
        const doctor = await repository.doctor(form.referrer, tx);
        if (doctor === null) throw validationError('referrer', 'Choose the doctor who referred you from the list.');
        if (form.dateOfReferral > localDate(clock.now(), appointment.clinic_time_zone)) {
          throw validationError('dateOfReferral', 'The date of the referral cannot be in the future.');
        }
        if (settings.ask_gender && form.gender === undefined) throw validationError('gender', 'Choose an option.');
        const medicareNumber = compactMedicareNumber(form.medicareNumber);
        const now = clock.now();
        await repository.insert(
          {
            appointmentId,
            channel: 'DIGITAL',
            referringDoctorId: form.referrer,
            referralDate: form.dateOfReferral,
            medicareNumber,
            medicareReference: form.referenceNumber.trim(),
            gender: settings.ask_gender ? (form.gender ?? null) : null,
            now,
          },
          tx,
        );
        await handoffs.enqueue(
          {
            appointmentId,
            kind: 'prepare_check_in',
            payload: {
              channel: 'DIGITAL',
              appointment: appointmentPayload(appointment),
              bookingDetails: await formDetailsOf(tx, appointment.booking_key),
              patient: {
                firstName: appointment.first_name,
                lastName: appointment.last_name,
                dateOfBirth: appointment.date_of_birth,
                medicareNumber,
                medicareReference: form.referenceNumber.trim(),
                ...(settings.ask_gender ? { gender: form.gender } : {}),
              },
              referral: { doctorProviderNumber: doctor.provider_number, doctorName: doctor.name, date: form.dateOfReferral },
            },
          },
          now,
          tx,
        );
        await auditCheckIn({ actor: auditActor(actor), action: 'check_in.prepared', channel: 'DIGITAL' }, appointmentId, now, tx);
        return statusOf(appointment, settings, tx);
      });
    },

    /** Checks in: after the RIS has the form, or at once in simple mode (one hand-off however often it is asked). */
    async checkIn(bookingKey: string, appointmentId: string, actor: BookingActor): Promise<CheckInStatus> {
      return db.transaction(async (tx) => {
        const appointment = await appointmentOrThrow(bookingKey, appointmentId, tx, true);
        const settings = await repository.settings(tx);
        const before = await statusOf(appointment, settings, tx);
        if (['CHECKING_IN', 'CHECKED_IN', 'FAILED'].includes(before.state)) return before;
        if (settings.simple_mode) {
          assertCanStart(appointment, before);
          await insertFormlessCheckIn(appointmentId, 'DIGITAL', clock.now(), tx);
        } else if (before.state !== 'PREPARED') {
          throw conflict(CHECK_IN_TEXTS.notPrepared, { state: before.state });
        }
        const now = clock.now();
        await handoffs.enqueue(
          {
            appointmentId,
            kind: 'check_in',
            payload: {
              channel: (await repository.channel(appointmentId, tx)) ?? 'DIGITAL',
              appointment: appointmentPayload(appointment),
              bookingDetails: await formDetailsOf(tx, appointment.booking_key),
              checkedInAt: now.toISOString(),
            },
          },
          now,
          tx,
        );
        await auditCheckIn({ actor: auditActor(actor), action: 'check_in.requested', channel: 'DIGITAL' }, appointmentId, now, tx);
        return statusOf(appointment, settings, tx);
      });
    },
  };
}

export type CheckInService = ReturnType<typeof createCheckInService>;
