import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import type { OtpChannel } from '@contract/api/patient-access';
import type { Database, Queryable } from '../../db/connection';
import type { Captcha } from '../../platform/captcha/captcha';
import type { Clock } from '../../platform/clock';
import { normalisePhoneNumber } from '../../platform/sms/sms-outbox-repository';
import type { PatientAccessRepository, PatientSessionRow, SignInSubject } from './repository';
import { bookingKeyRef } from '../../platform/security-audit';

/**
 * What the sign-in steps share (docs/rules/patient-access.md): the service's dependencies, the
 * request context, the server secret and its HMACs, and the audit entry. The steps themselves:
 * sessions.ts, dob-step.ts, one-time-codes.ts; the attempt limits: attempt-limits.ts.
 */

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_MAX_MS = 12 * 60 * 60_000;
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_WRONG = 5;
export const OTP_MAX_SENDS_PER_HOUR = 5;
/** One address or number gets at most this many codes an hour, whatever the booking (SMS/mail bombing). */
export const OTP_MAX_SENDS_PER_DESTINATION_HOUR = 10;
/** All code SMS together, per hour: a ceiling on what an attack can cost. */
export const OTP_MAX_SMS_PER_HOUR = 1000;
export const SWEEP_KEEP_FAILURES_MS = 24 * 60 * 60_000;
export const ROLE_TRANSLATIONS = '{}';

export interface SignInSettings {
  otpRequired: boolean;
  otpResendSeconds: number;
  providerName: string;
}

export interface PatientAccessServiceDeps {
  db: Database;
  repository: PatientAccessRepository;
  clock: Clock;
  /** SESSION_SECRET; null: the database's own random secret. */
  sessionSecret: string | null;
  /** An SMS provider is configured: SMS codes are offered. */
  smsConfigured: boolean;
  settings: () => Promise<SignInSettings>;
  /** The proof-of-work check asked of a client address past its failure threshold (attempt-limits.ts). */
  captcha: Captcha;
}

/** Who is asking: the Cookie header, the client address and the solved proof-of-work header, if any. */
export interface RequestContext {
  cookie: string | string[] | undefined;
  ip: string;
  captcha?: string | string[] | undefined;
}

export interface LiveSession extends PatientSessionRow {
  tokenSha256: string;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
/** How the audit log names a booking key: never the key itself (it is the patient's secret link). */
export const keyRef = bookingKeyRef;

export const digitsOnly = (value: string | null): string => (value ?? '').replace(/\D/g, '');

export function channelsFor(subject: SignInSubject, smsConfigured: boolean): OtpChannel[] {
  const channels: OtpChannel[] = [];
  if (subject.email !== null && subject.email.includes('@')) channels.push('EMAIL');
  if (smsConfigured && subject.contactNumber !== null && normalisePhoneNumber(subject.contactNumber) !== null) channels.push('SMS');
  return channels;
}

/** Six digits, leading zeros kept. */
export function generateOtpCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** The secret, the HMACs keyed with it and the audit entry, shared by every step. */
export function createSignInBasics(deps: PatientAccessServiceDeps) {
  const { repository, clock } = deps;
  let secretPromise: Promise<string> | null = null;

  function secret(): Promise<string> {
    if (deps.sessionSecret !== null) return Promise.resolve(deps.sessionSecret);
    secretPromise ??= repository.secret(randomBytes(32).toString('hex'), clock.now()).catch((error: unknown) => {
      secretPromise = null;
      throw error;
    });
    return secretPromise;
  }

  const hmac = (key: string, text: string): string => createHmac('sha256', key).update(text).digest('hex');

  return {
    secret,
    hmac,
    otpHmac: (key: string, salt: string, code: string): string => hmac(key, `otp:${salt}:${code}`),
    /** The attempt-limit subjects: a booking key and a client address, never stored in clear. */
    keyHmac: (key: string, bookingKey: string): string => hmac(key, `key:${bookingKey}`),
    clientHmac: (key: string, ip: string): string => hmac(key, `ip:${ip}`),
    async audit(tx: Queryable, action: string, bookingKey: string, details: Record<string, unknown>): Promise<void> {
      await repository.audit({ action, subjectType: 'booking_key', subjectId: keyRef(bookingKey), details, now: clock.now() }, tx);
    },
  };
}

export type SignInBasics = ReturnType<typeof createSignInBasics>;
