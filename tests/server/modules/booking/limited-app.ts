import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildServer, type ServerDeps } from '../../../../src-server/app';
import type { BookingLimits } from '../../../../src-server/modules/booking/booking-limits';
import { createTestClock, type TestClock } from '../../../../src-server/platform/clock';
import { noTransportMailer } from '../../../../src-server/platform/mailer';
import { createFolderStorage } from '../../../../src-server/platform/storage';
import { TEST_CAPTCHA_WORK, testConfig } from '../../helpers/build-server';
import { SEED_NOW, type Backend } from '../../helpers/database';
import { useTestDatabase, type TestDatabaseHandle } from '../../helpers/test-app';

/**
 * The real app (buildServer, no mocks) with small booking limits, so a test reaches each
 * threshold in a few requests (docs/rules/booking.md#booking-limits).
 */

/**
 * The limits the limit tests count against: a solved answer asked for after 2 holds or bookings
 * from one client (3 for one contact), all refused after 4 (5), 2 confirmation mails per address.
 */
export const SMALL_LIMITS: BookingLimits = {
  holdsPerClient: { captchaAfter: 2, refuseAfter: 4 },
  bookingsPerClient: { captchaAfter: 2, refuseAfter: 4 },
  bookingsPerContact: { captchaAfter: 3, refuseAfter: 5 },
  confirmationMailsPerEmail: 2,
  timeZone: 'Australia/Sydney',
};

export interface LimitedApp extends TestDatabaseHandle {
  readonly app: FastifyInstance;
  readonly clock: TestClock;
}

/** `identity`: staff sign-in, read in beforeAll (after a test identity provider started). */
export function useLimitedApp(backend: Backend, limits: BookingLimits, identity?: () => ServerDeps['identity']): LimitedApp {
  const database = useTestDatabase({ backend });
  const clock = createTestClock(SEED_NOW);
  let app: FastifyInstance | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'portal-limits-'));
    app = await buildServer({
      db: database.db,
      clock,
      config: testConfig({ DATA_DIR: dataDir }),
      mailer: noTransportMailer,
      storage: createFolderStorage(join(dataDir, 'files')),
      logger: { level: 'silent' },
      captchaWork: TEST_CAPTCHA_WORK,
      bookingLimits: limits,
      ...(identity === undefined ? {} : { identity: identity() }),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    backend,
    clock,
    get db() {
      return database.db;
    },
    get app() {
      if (app === undefined) throw new Error('app exists only inside hooks and tests');
      return app;
    },
  };
}
