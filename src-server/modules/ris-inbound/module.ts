import { serverModule } from '../../server-module';
import { startMllpListener, type MllpListener } from '../../platform/hl7/mllp-listener';
import { SENDING_APPLICATION } from '../../platform/hl7/scheduling-messages';
import { createHl7Inbound } from './inbound-service';

/**
 * The portal's MLLP listener for the RIS (HL7_LISTEN_ADDRESS): open once the server is ready (the
 * results delivery and the provider's cancellation are there), closed with the server. Without the
 * setting nothing listens.
 */
export const risInboundModule = serverModule('ris-inbound', ['results', 'booking'], (app) => {
  const { deps, configService } = app.portal;
  const settings = deps.config.hl7Inbound;
  let listener: MllpListener | null = null;
  app.decorate('hl7Listener', { address: () => (listener === null ? null : { host: listener.host, port: listener.port }) });
  if (settings === null) return;
  const handle = createHl7Inbound({
    db: deps.db,
    clock: deps.clock,
    delivery: app.resultDelivery,
    cancelByProvider: app.cancelByProvider,
    moveByProvider: app.moveByProvider,
    releaseDelayDays: settings.releaseDelayDays,
    providerName: async () => (await configService.getBootstrap()).radiology.name,
    logger: app.log,
  });
  app.addHook('onReady', async () => {
    listener = await startMllpListener({
      host: settings.host,
      port: settings.port,
      allowedAddresses: settings.allowedAddresses,
      handle,
      logger: app.log,
      application: SENDING_APPLICATION,
    });
    app.log.info(`[hl7] listening for the RIS on ${settings.host}:${listener.port}`);
  });
  app.addHook('onClose', async () => {
    await listener?.close();
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the portal's MLLP listener for the RIS listens, once the server is ready; null without one (the demo RIS sends its reports there). */
    readonly hl7Listener: { address(): { host: string; port: number } | null };
  }
}
