import { createHash, randomInt } from 'node:crypto';
import { ENROLLMENT_CODE_HOURS, type Kiosk, type KioskHealth, type KioskHeartbeat, type KioskIdentity } from '@contract/api/kiosks';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { badRequest, notFound, secondsUntilWindowFrees, tooManyRequests, validationError } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { createIdentityCheck } from './identity';
import { createKiosksRepository, type IdentityMatchRow, type KioskRow } from './repository';

/**
 * Kiosks (docs/rules/kiosk.md#enrollment): added by kiosk administrators, enrolled once with a
 * one-time code into a revocable token, and the identity check a patient starts check-in with.
 */

// The identity check's limits live with it; re-exported for the limits test and older imports.
export { IDENTITY_WINDOW_MS, KIOSK_IDENTITY_LIMIT, PERSON_IDENTITY_LIMIT } from './identity';

const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** Wrong enrollment codes from one address within ENROLLMENT_WINDOW_MS before it must wait. */
export const ENROLLMENT_FAILURE_LIMIT = 10;
export const ENROLLMENT_WINDOW_MS = 15 * 60_000;

export const KIOSK_TEXTS = {
  codeRefused: 'This enrollment code is wrong, used or expired. Ask for a new one on the staff kiosk page.',
  unknownClinic: 'There is no clinic with this name.',
  futureTime: "This time is in the future; check the kiosk's clock.",
  tooManyCodes: 'Too many wrong enrollment codes from this network. Wait 15 minutes, then enter the code from the staff kiosk page again.',
} as const;

export interface KiosksServiceDeps {
  db: Database;
  clock: Clock;
  /** The server's HMAC key (SESSION_SECRET or the database's own). */
  secret: () => Promise<string>;
  /** Check-in's window and switches for an appointment, for disabledReason. */
  checkInOpen: (appointment: IdentityMatchRow, now: Date) => Promise<'open' | 'disabled' | 'not_yet'>;
  /** KIOSK_SILENT_MINUTES. */
  silentMinutes: number;
  /** Every FEEDBACK questionnaire of the booking is answered (or none applies). */
  feedbackAnswered: (bookingKey: string) => Promise<boolean>;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

function newCode(): string {
  const characters = Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
  return `${characters.slice(0, 4).join('')}-${characters.slice(4).join('')}`;
}

function healthOf(row: KioskRow): KioskHealth | null {
  if (row.last_heartbeat_at === null) return null;
  return {
    at: row.last_heartbeat_at,
    appVersion: row.app_version ?? '',
    uptimeSeconds: row.uptime_seconds ?? 0,
    lastCrash: row.last_crash_at === null ? null : { at: row.last_crash_at, reason: row.last_crash_reason ?? '' },
    lastPatientActivityAt: row.last_patient_activity_at,
    lastOfflineAt: row.last_offline_at,
  };
}

/** The kiosk as the staff page shows it; silent when enrolled and unheard of for longer than silentMinutes. */
function kioskOf(row: KioskRow, now: Date, silentMinutes: number): Kiosk {
  const state = row.revoked_at !== null ? 'REVOKED' : row.enrolled_at !== null ? 'ENROLLED' : 'PENDING';
  const heardAt = row.last_seen_at === null ? null : Date.parse(row.last_seen_at);
  return {
    id: row.id,
    name: row.name,
    clinicSlug: row.clinic_slug,
    state,
    enrolledAt: row.enrolled_at,
    lastSeenAt: row.last_seen_at,
    createdAt: row.created_at,
    health: healthOf(row),
    silent: state === 'ENROLLED' && (heardAt === null || now.getTime() - heardAt > silentMinutes * 60_000),
  };
}

/** A kiosk's clock may run a little ahead; a time further ahead than this is refused. */
const HEARTBEAT_CLOCK_SKEW_MS = 5 * 60_000;

export function createKiosksService(deps: KiosksServiceDeps) {
  const { db, clock } = deps;
  const repository = createKiosksRepository(db);
  const audit = createAuditLogRepository(db);

  async function issueCode(kioskId: string, staffRef: string, action: string) {
    const code = newCode();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + ENROLLMENT_CODE_HOURS * 60 * 60_000);
    await db.transaction(async (tx) => {
      await repository.replaceCode(kioskId, sha256Hex(code.replace('-', '')), expiresAt, tx);
      await audit.record({ actor: `staff:${staffRef}`, action, subjectType: 'kiosk', subjectId: kioskId, details: {}, now }, tx);
    });
    const row = await repository.byId(kioskId);
    if (row === null) throw notFound('This kiosk was not found.');
    return { kiosk: kioskOf(row, clock.now(), deps.silentMinutes), code, expiresAt: expiresAt.toISOString() };
  }

  return {
    async list(): Promise<{ kiosks: Kiosk[]; silentAfterMinutes: number }> {
      const now = clock.now();
      return {
        kiosks: (await repository.list()).map((row) => kioskOf(row, now, deps.silentMinutes)),
        silentAfterMinutes: deps.silentMinutes,
      };
    },

    /** The kiosk app's heartbeat: stored as the kiosk's health; a time in the future is refused. */
    async heartbeat(kiosk: KioskRow, beat: KioskHeartbeat): Promise<void> {
      const now = clock.now();
      const latest = now.getTime() + HEARTBEAT_CLOCK_SKEW_MS;
      const times: [string, string | null | undefined][] = [
        ['lastCrash.at', beat.lastCrash?.at],
        ['lastPatientActivityAt', beat.lastPatientActivityAt],
        ['lastOfflineAt', beat.lastOfflineAt],
      ];
      for (const [field, value] of times)
        if (value != null && Date.parse(value) > latest) throw validationError(field, KIOSK_TEXTS.futureTime);
      await repository.heartbeat(kiosk.id, beat, now);
    },

    async create(input: { name: string; clinicSlug?: string | null | undefined }, staffRef: string) {
      const clinicId = input.clinicSlug ? await repository.clinicId(input.clinicSlug) : null;
      if (input.clinicSlug && clinicId === null) throw validationError('clinicSlug', KIOSK_TEXTS.unknownClinic);
      const id = await repository.insert({ name: input.name, clinicId, createdBy: staffRef, now: clock.now() });
      return issueCode(id, staffRef, 'kiosk.added');
    },

    async newCode(kioskId: string, staffRef: string) {
      if ((await repository.byId(kioskId)) === null) throw notFound('This kiosk was not found.');
      return issueCode(kioskId, staffRef, 'kiosk.enrollment_code_issued');
    },

    async revoke(kioskId: string, staffRef: string): Promise<Kiosk> {
      const now = clock.now();
      const revoked = await db.transaction(async (tx) => {
        const done = await repository.revoke(kioskId, now, tx);
        if (done)
          await audit.record(
            { actor: `staff:${staffRef}`, action: 'kiosk.revoked', subjectType: 'kiosk', subjectId: kioskId, details: {}, now },
            tx,
          );
        return done;
      });
      const row = revoked ? await repository.byId(kioskId) : null;
      if (row === null) throw notFound('This kiosk was not found.');
      return kioskOf(row, clock.now(), deps.silentMinutes);
    },

    /** Exchanges a one-time code for the kiosk's token (answered once, for the cookie). */
    async enroll(code: string, ip: string): Promise<{ token: string; identity: KioskIdentity }> {
      const now = clock.now();
      const address = ip.slice(0, 64) || 'unknown';
      const failures = await repository.enrollmentFailuresSince(address, new Date(now.getTime() - ENROLLMENT_WINDOW_MS));
      // Locked until the oldest counted failure leaves the window.
      if (failures.count >= ENROLLMENT_FAILURE_LIMIT)
        throw tooManyRequests(KIOSK_TEXTS.tooManyCodes, secondsUntilWindowFrees(failures.oldest, ENROLLMENT_WINDOW_MS, now));
      const token = randomToken(32);
      const kioskId = await db.transaction(async (tx) => {
        const id = await repository.useCode(sha256Hex(code.replace('-', '')), now, tx);
        if (id === null) return null;
        await repository.enroll(id, sha256Hex(token), now, tx);
        await audit.record({ actor: 'kiosk', action: 'kiosk.enrolled', subjectType: 'kiosk', subjectId: id, details: {}, now }, tx);
        return id;
      });
      if (kioskId === null) {
        await repository.recordEnrollmentFailure(address, now);
        throw badRequest(KIOSK_TEXTS.codeRefused);
      }
      const row = await repository.byId(kioskId);
      if (row === null) throw new Error('[kiosks] the enrolled kiosk is gone');
      return { token, identity: { name: row.name, clinicSlug: row.clinic_slug, clinicName: row.clinic_name } };
    },

    /** The live kiosk holding this token, or null (never enrolled, replaced or revoked). */
    async byToken(token: string): Promise<KioskRow | null> {
      const row = await repository.byToken(sha256Hex(token));
      if (row !== null) await repository.touch(row.id, clock.now());
      return row;
    },

    identityOf(row: KioskRow): KioskIdentity {
      return { name: row.name, clinicSlug: row.clinic_slug, clinicName: row.clinic_name };
    },

    /** The check-in identity check, by name or by a scanned booking code (identity.ts). */
    identity: createIdentityCheck({
      repository,
      clock,
      secret: deps.secret,
      checkInOpen: deps.checkInOpen,
      feedbackAnswered: deps.feedbackAnswered,
    }),
  };
}

export type KiosksService = ReturnType<typeof createKiosksService>;
