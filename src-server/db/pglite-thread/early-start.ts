import { startPgliteThreadEarly } from './client';

/**
 * Loaded by the built server's entry (dist/server/main.js, scripts/build-server.mjs) before the
 * server's own code: the embedded database's thread starts loading PGlite at once. With
 * DATABASE_URL set the server runs on PostgreSQL and the thread would only be ended again.
 */
if ((process.env.DATABASE_URL ?? '').trim() === '') startPgliteThreadEarly();
