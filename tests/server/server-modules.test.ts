import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigRepository } from '../../src-server/modules/config/repository';
import { createConfigService } from '../../src-server/modules/config/service';
import { createTestClock } from '../../src-server/platform/clock';
import { noTransportMailer } from '../../src-server/platform/mailer';
import { configuredStorage } from '../../src-server/platform/storage';
import { notificationsModule, patientAccessModule, staffAccessModule } from '../../src-server/register-access';
import { bookingModule } from '../../src-server/register-booking';
import { platformModule } from '../../src-server/register-platform';
import { resultsModule } from '../../src-server/register-results';
import { visitModule } from '../../src-server/register-visit';
import type { ServerDeps } from '../../src-server/server-deps';
import { testConfig } from './helpers/build-server';
import { createTestDatabase, SEED_NOW, type TestDatabase } from './helpers/database';

// The server is the platform and a list of named modules (docs/server.md#modules): a module
// registered without a module it stands on stops the start, naming what is missing.

const MODULES_AFTER_PLATFORM: [string, FastifyPluginAsync][] = [
  ['patient-access', patientAccessModule],
  ['staff-access', staffAccessModule],
  ['booking', bookingModule],
  ['visit', visitModule],
  ['results', resultsModule],
  ['notifications', notificationsModule],
];

describe('server modules', () => {
  it.each(MODULES_AFTER_PLATFORM)('refuses to start the %s module without the platform', async (_name, module) => {
    const app = Fastify({ logger: false });
    await expect(app.register(module)).rejects.toThrow(/dependency 'platform'/);
    await app.close().catch(() => undefined);
  });

  describe('on the platform', () => {
    let database: TestDatabase;
    let deps: ServerDeps;

    beforeAll(async () => {
      database = await createTestDatabase('pglite', 'migrated');
      const config = testConfig();
      deps = {
        db: database.db,
        clock: createTestClock(SEED_NOW),
        config,
        mailer: noTransportMailer,
        storage: configuredStorage(config),
        logger: { level: 'silent' },
      };
    });
    afterAll(() => database.destroy());

    async function platformApp(): Promise<FastifyInstance> {
      const app = Fastify({ logger: false });
      const configService = createConfigService({ repository: createConfigRepository(deps.db), config: deps.config, clock: deps.clock });
      await app.register(platformModule, { deps, configService });
      return app;
    }

    it.each([
      ['booking', bookingModule, 'patient-access'],
      ['visit', visitModule, 'patient-access'],
      ['results', resultsModule, 'patient-access'],
    ] as const)('refuses to start the %s module before the %s module it stands on', async (name, module, missing) => {
      const app = await platformApp();
      await expect(app.register(module)).rejects.toThrow(new RegExp(`${missing}.*${name}|${name}.*${missing}`));
      await app.close().catch(() => undefined);
    });

    it('refuses the visit module before the booking module, whose access checks its routes use', async () => {
      const app = await platformApp();
      await app.register(patientAccessModule);
      await expect(app.register(visitModule)).rejects.toThrow(/booking/);
      await app.close().catch(() => undefined);
    });

    it('starts with every module in order', async () => {
      const app = await platformApp();
      for (const [, module] of MODULES_AFTER_PLATFORM) await app.register(module);
      await app.ready();
      expect(app.hasDecorator('portal')).toBe(true);
      expect(app.routeAccess.size).toBeGreaterThan(100);
      await app.close();
    });
  });
});
