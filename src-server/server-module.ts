import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ServerDeps } from './server-deps';
import type { createConfigService } from './modules/config/service';
import type { PatientAccessRepository } from './modules/patient-access/repository';
import type { Captcha } from './platform/captcha/captcha';

/**
 * The server is a short list of named modules (docs/server.md#modules), each a Fastify plugin
 * that names the modules it stands on. Fastify checks the names when a module registers, so a
 * module registered without what it needs stops the start with an error naming the missing one,
 * instead of failing at the first request that reaches it.
 */
export type ServerModuleName =
  'platform' | 'patient-access' | 'staff-access' | 'booking' | 'visit' | 'results' | 'notifications' | 'fhir' | 'ris-inbound';

/** What the platform module makes of the server's dependencies, for every module after it (app.portal). */
export interface PortalServices {
  deps: ServerDeps;
  configService: ReturnType<typeof createConfigService>;
  /** The proof-of-work check (platform/captcha) the limited forms ask for. */
  captcha: Captcha;
  /** The server's HMAC key: SESSION_SECRET, else one random secret the database keeps. */
  secret: () => Promise<string>;
  patientAccessRepository: PatientAccessRepository;
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly portal: PortalServices;
  }
}

/**
 * A named module: `register` runs on the root instance (no encapsulation: its routes, hooks and
 * decorations are the server's), after every module in `dependencies`. Every module but the
 * platform names it, as it reads app.portal.
 */
export function serverModule<Options extends Record<string, unknown> = Record<never, never>>(
  name: ServerModuleName,
  dependencies: readonly ServerModuleName[],
  register: (app: FastifyInstance, options: Options) => Promise<void> | void,
): FastifyPluginAsync<Options> {
  const plugin: FastifyPluginAsync<Options> = async (app, options) => register(app, options);
  return fastifyPlugin(plugin, { name, fastify: '5.x', dependencies: [...dependencies] });
}
