import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { KIOSK_TOKEN_COOKIE } from '@contract/api/kiosks';
import { cookieBrowser, type CookieBrowser } from '../../helpers/cookie-browser';
import { SEED_NOW } from '../../helpers/database';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { KIOSK_ADMIN_CLAIMS, type StaffBrowser, type StaffTestApp } from '../staff-access/identity-kit';

/** Where the kiosk tests set the app's clock: the seed's instant (SEED_NOW), 12:00 in Sydney. */
export const SEED = new Date(SEED_NOW);

/**
 * The demo provider's check-in appointment (Parramatta): 60 minutes after SEED, 13:00 in Sydney;
 * check-in opens 120 minutes before.
 */
export const OLIVIA = { bookingKey: 'RXizpOy124eIE3xqxwcjKA', lastName: 'Arrival', dateOfBirth: '1983-06-30' };

/** What the kiosk administrator names a new kiosk and where it stands. */
export interface NewKiosk {
  name: string;
  clinicSlug: string;
}

/**
 * Adds a kiosk through a kiosk administrator's session, then enrolls a browser in kiosk mode at
 * `address` with the kiosk's code, as the kiosk app does; each step must pass. The browser holds
 * the kiosk cookie (its token).
 */
export async function addEnrolledKiosk(
  app: FastifyInstance,
  kioskAdmin: CookieBrowser,
  kiosk: NewKiosk,
  address: string,
): Promise<{ id: string; browser: CookieBrowser }> {
  const added = await kioskAdmin.request('POST', '/api/staff/kiosks', kiosk);
  expect(added.statusCode, added.body).toBe(201);
  const { kiosk: row, code } = added.json<{ kiosk: { id: string }; code: string }>();
  const browser = cookieBrowser(app, KIOSK_TOKEN_COOKIE, address);
  const enrolled = await browser.request('POST', '/api/kiosk/enroll', { code });
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  return { id: row.id, browser };
}

/**
 * A kiosk test file's start: the app's clock at SEED, patients signing in by date of birth alone
 * (no one-time password, as at the kiosk), and a kiosk administrator signed in, whose browser it answers.
 */
export async function startKioskTests({ server, signedIn }: Pick<StaffTestApp, 'server' | 'signedIn'>): Promise<StaffBrowser> {
  server.clock.set(SEED);
  await setOtpRequired(server.db, false);
  return signedIn(KIOSK_ADMIN_CLAIMS);
}

/** Each kiosk test starts at SEED with no identity attempts counted: their limits would carry over from the test before. */
export async function resetKioskIdentityAttempts(server: StaffTestApp['server']): Promise<void> {
  server.clock.set(SEED);
  await server.db.query('delete from kiosk_identity_attempt');
}
