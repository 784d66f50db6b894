import type { RouteAccess } from '../../src-server/platform/route-access';
import { buildTestServer, testConfig } from './helpers/build-server';
import { createTestDatabase } from './helpers/database';
import { MATRIX_ENV, MATRIX_ROLE_MAPPING } from './route-access-matrix';

/**
 * Every route the matrix's app registers, as ['METHOD /path', its declared access], sorted: read
 * from a build of that app (MATRIX_ENV, staff sign-in on) on an empty database, at collection
 * time, so that each route is a test of its own. No request is made and no key is fetched.
 */
export async function declaredRouteAccess(): Promise<Array<[string, RouteAccess]>> {
  const database = await createTestDatabase('pglite', 'empty');
  const server = await buildTestServer({
    db: database.db,
    configFor: (dataDir) => testConfig({ ...MATRIX_ENV, DATA_DIR: dataDir }),
    identity: {
      issuer: 'https://identity.example.test/',
      jwksUri: 'https://identity.example.test/keys',
      audience: 'portal',
      roleMapping: MATRIX_ROLE_MAPPING,
    },
  });
  try {
    return [...server.app.routeAccess].sort(([a], [b]) => a.localeCompare(b));
  } finally {
    await server.close();
    await database.destroy();
  }
}
