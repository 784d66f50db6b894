import type { FastifyInstance } from 'fastify';

/**
 * Stops a listening server the gentle way (docs/rules/security.md#reliability): no new connections, requests
 * in flight finish, idle keep-alive sockets close at once; whatever still runs after timeoutMs
 * has its connection closed, so a stuck request cannot keep a deployment from restarting.
 * Then the resources (database, mailer) close.
 */
export async function gracefulShutdown(
  app: FastifyInstance,
  options: { timeoutMs: number; closeResources: () => Promise<void> },
): Promise<{ timedOut: boolean }> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    app.log.warn({ timeoutMs: options.timeoutMs }, '[shutdown] requests still running after the timeout; closing their connections');
    app.server.closeAllConnections();
  }, options.timeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
    await options.closeResources();
  }
  return { timedOut };
}
