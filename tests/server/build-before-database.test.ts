import { describe, expect, it } from 'vitest';
import type { Database } from '../../src-server/db/connection';
import { deferredDatabase } from '../../src-server/db/deferred-database';
import { buildTestServer } from './helpers/build-server';
import { useTestDatabase } from './helpers/test-app';

/**
 * main.ts builds the server's routes while the database opens, migrates and seeds: building must
 * not run a statement (one would hold the build up until the database is ready, and on a first
 * start or a long migration fastify's plugin timeout would stop the server).
 */
describe('building the server before its database is open', () => {
  const seeded = useTestDatabase();

  it('builds every route without a statement, then answers once the database is ready', async () => {
    let open: (db: Database) => void = () => undefined;
    const ready = new Promise<Database>((resolve) => (open = resolve));
    const statements: string[] = [];
    const db = deferredDatabase('pglite', ready);
    const server = await buildTestServer({
      db: {
        ...db,
        query: (sql, params) => (statements.push(sql), db.query(sql, params)),
        exec: (sql) => (statements.push(sql), db.exec(sql)),
        transaction: (fn) => (statements.push('transaction'), db.transaction(fn)),
      },
    });
    try {
      expect(statements).toEqual([]);
      expect(server.app.hasRoute({ method: 'GET', url: '/api/booking/clinics' })).toBe(true);
      open(seeded.db);
      const response = await server.app.inject({ method: 'GET', url: '/api/booking/exams' });
      expect(response.statusCode).toBe(200);
      expect(statements.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
