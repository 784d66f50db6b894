import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../../../src-server/db/connection';
import type { Clock } from '../../../../src-server/platform/clock';
import { createRisWorker } from '../../../../src-server/platform/ris/ris-worker';
import { createRisWebhookSender } from '../../../../src-server/platform/ris/webhook';
import { markCheckedIn } from '../../../../src-server/modules/check-in/public';
import { appointmentBase, jpeg, multipart, send } from '../attachments/attachments-kit';
import type { Signed } from '../appointments/self-service-kit';
import type { RisListener } from './ris-listener';

/** Shared steps of the check-in tests: the demo booking used, a valid form, and the state to reset between tests. */

export const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14' };
/** 2123 45670 1: the check digit 0 is 2·1 + 1·3 + 2·7 + 3·9 + 4·1 + 5·3 + 6·7 + 7·9 = 170, modulo 10. */
export const VALID_MEDICARE = '2123 45670 1';

export interface Booked {
  appointmentId: string;
  startsAt: Date;
  examId: string;
  doctorId: string;
  referralTypeId: string;
}

export async function liamsAppointment(db: Database): Promise<Booked> {
  const [appointment] = await db.query<{ id: string; starts_at: string; exam_id: string }>(
    `select id::text as id, lower(during)::text as starts_at, exam_id::text as exam_id from appointment where booking_key = $1 order by lower(during) limit 1`,
    [LIAM.bookingKey],
  );
  const [doctor] = await db.query<{ id: string }>(`select id::text as id from referring_doctor order by provider_number limit 1`);
  const [referral] = await db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
  if (appointment === undefined || doctor === undefined || referral === undefined) throw new Error('the demo provider is not seeded');
  return {
    appointmentId: appointment.id,
    startsAt: new Date(appointment.starts_at),
    examId: appointment.exam_id,
    doctorId: doctor.id,
    referralTypeId: referral.id,
  };
}

/** Back to a booked appointment with no check-in, no hand-off, no referral asked for, default settings. */
export async function resetCheckIn(db: Database, booked: Booked): Promise<void> {
  await db.query(`delete from ris_handoff`);
  await db.query(`delete from check_in`);
  await db.query(`delete from attachment where owner_key = $1`, [LIAM.bookingKey]);
  await db.query(`update appointment set status = 'BOOKED' where id = $1::uuid`, [booked.appointmentId]);
  await db.query(`update exam set referral_required = false, check_in_enabled = true where id = $1::uuid`, [booked.examId]);
  await db.query(`delete from exam_document_type where exam_id = $1::uuid`, [booked.examId]);
  await db.query(`update check_in_settings set enabled = true, prior_minutes = 120, simple_mode = false, ask_gender = false`);
}

export function validForm(booked: Booked, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { referrer: booked.doctorId, dateOfReferral: '2026-01-15', medicareNumber: VALID_MEDICARE, referenceNumber: '2', ...overrides };
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The RIS worker as main.ts starts it, sending to the test's listener; tests call runOnce(). */
export function risWorkerFor(db: Database, clock: Clock, listener: RisListener, maxAttempts = 5) {
  return createRisWorker({
    db,
    markCheckedIn,
    sender: createRisWebhookSender({ url: listener.url, secret: listener.secret }, { timeoutMs: 300, now: () => clock.now() }),
    clock,
    logger: silent,
    maxAttempts,
  });
}

export async function handoffRows(
  db: Database,
): Promise<Array<{ kind: string; status: string; attempts: number; last_error: string | null }>> {
  return db.query(`select kind, status, attempts, last_error from ris_handoff order by id`);
}

/** LIAM uploads a referral photo through the attachments API, as the patient would. */
export async function uploadReferral(app: FastifyInstance, liam: Signed, booked: Booked): Promise<LightMyRequestResponse> {
  return send(
    app,
    { patientToken: liam.browser.token ?? '' },
    'POST',
    appointmentBase(LIAM.bookingKey),
    multipart({ documentTypeId: booked.referralTypeId }, { name: 'referral.jpg', type: 'image/jpeg', bytes: await jpeg() }),
  );
}
