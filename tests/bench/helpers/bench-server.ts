import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer, type ServerDeps } from '../../../src-server/app';
import { parseConfig } from '../../../src-server/config';
import type { Database } from '../../../src-server/db/connection';
import { systemClock } from '../../../src-server/platform/clock';
import { noTransportMailer } from '../../../src-server/platform/mailer';
import { createFolderStorage } from '../../../src-server/platform/storage';

/**
 * The production app on the benchmark's database, listening on loopback, its files under dataDir;
 * with `identity`, staff sign in through that provider (helpers/identity-tokens.ts).
 */
export async function startBenchServer(
  db: Database,
  dataDir: string,
  env: Record<string, string> = {},
  identity?: ServerDeps['identity'],
): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const parsed = parseConfig(
    { LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...env },
    { cwd: process.cwd(), packageVersion: '0.0.0-bench', gitShortHash: null },
  );
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const app = await buildServer({
    db,
    clock: systemClock,
    config: parsed.config,
    mailer: noTransportMailer,
    storage: createFolderStorage(join(dataDir, 'files')),
    logger: { level: 'silent' },
    ...(identity === undefined ? {} : { identity }),
  });
  return { app, baseUrl: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

/** The Cookie header of a session cookie a response set (e.g. after a sign-in). */
export function sessionCookieOf(setCookie: unknown): string {
  const cookie = /(__Host-[^=]+=[^;]+)/.exec(String(setCookie))?.[1];
  if (cookie === undefined) throw new Error('no session cookie was set');
  return cookie;
}

/** The demo seed's patient with an appointment. */
export const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14' };

/** The Cookie header of LIAM's APPOINTMENT session, signed in with the date of birth alone (otpRequired off). */
export async function liamSessionCookie(app: FastifyInstance): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/patient-access/authenticate',
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    payload: { bookingKey: LIAM.bookingKey, type: 'APPOINTMENT', dateOfBirth: LIAM.dateOfBirth },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`);
  return sessionCookieOf(response.headers['set-cookie']);
}
