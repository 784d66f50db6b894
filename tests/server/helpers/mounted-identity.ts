import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { openStaffIdentity, type StaffIdentity } from '../../../src-server/staff-identity';
import { testConfig } from './build-server';

export interface MountedStaffIdentity {
  /** The portal's origin, e.g. http://localhost:41234. */
  readonly portal: string;
  readonly staffIdentity: StaffIdentity;
}

/**
 * The default of `npm start` for a describe block: the demo identity provider inside the portal
 * (/dev/idp), answered first by the portal's own HTTP server as buildServer makes it; opened
 * before the block's tests, closed after them.
 */
export function useMountedStaffIdentity(options: { host: 'localhost' | '127.0.0.1'; env?: Record<string, string> }): MountedStaffIdentity {
  let server: Server | undefined;
  let portal = '';
  let staffIdentity: StaffIdentity | undefined;
  beforeAll(async () => {
    const handlers: { mounted?: StaffIdentity['mounted'] } = {};
    const started = createServer((request, response) => {
      if (handlers.mounted?.(request, response) !== true) response.writeHead(404).end();
    });
    server = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', () => resolve()));
    portal = `http://${options.host}:${(started.address() as AddressInfo).port}`;
    staffIdentity = await openStaffIdentity(testConfig({ PUBLIC_URL: portal, ...options.env }), { onError: () => undefined });
    handlers.mounted = staffIdentity.mounted;
  });
  afterAll(async () => {
    await staffIdentity?.close();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  });
  return {
    get portal() {
      return portal;
    },
    get staffIdentity() {
      if (staffIdentity === undefined) throw new Error('the mounted identity provider is not open yet');
      return staffIdentity;
    },
  };
}
