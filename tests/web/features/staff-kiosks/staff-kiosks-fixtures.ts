import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kiosk } from '@contract/api/kiosks';
import type { StaffUser } from '@contract/api/staff-access';
import { json, overridable, readJsonBody, type RouteHandler, type RouteOverride } from '../../helpers/api-server';

export const KIOSK_ADMIN: StaffUser = {
  username: 'kim.kiosk-it@demo-radiology.example',
  organization: 'Harbour & Range Radiology',
  currentDoctor: null,
  userId: 'kiosk-admin-1',
  roles: ['kioskAdmin'],
};

export const ENROLLED: Kiosk = {
  id: '5d1f0c2e-6a51-4f0e-9a55-0b7f1e2d3c41',
  name: 'Parramatta lobby 1',
  clinicSlug: 'parramatta',
  state: 'ENROLLED',
  // 9:00 am on 19 March 2026 in Sydney (AEDT, UTC+11).
  enrolledAt: '2026-03-18T22:00:00.000Z',
  lastSeenAt: '2026-03-18T23:30:00.000Z',
  createdAt: '2026-03-18T21:00:00.000Z',
  // The kiosk app's heartbeat at 10:30 am: up 2 hours 5 minutes, one renderer crash at 9:40 am.
  health: {
    at: '2026-03-18T23:30:00.000Z',
    appVersion: '1.4.2',
    uptimeSeconds: 7_500,
    lastCrash: { at: '2026-03-18T22:40:00.000Z', reason: 'renderer gone: crashed' },
    lastPatientActivityAt: '2026-03-18T23:25:00.000Z',
    lastOfflineAt: null,
  },
  silent: false,
};

export const UNPLACED: Kiosk = {
  id: '7b2e1d3c-4a5f-4e6d-8c7b-9a0b1c2d3e4f',
  name: 'Spare tablet',
  clinicSlug: null,
  state: 'PENDING',
  enrolledAt: null,
  lastSeenAt: null,
  createdAt: '2026-03-18T21:00:00.000Z',
  health: null,
  silent: false,
};

const NEW_ID = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

export interface KiosksServer {
  routes: Record<string, RouteHandler>;
  kiosks: Kiosk[];
  /** Bodies of POST /api/staff/kiosks and the paths of every other POST, in order. */
  posts: { path: string; body: unknown }[];
  override: Record<string, RouteOverride>;
}

/**
 * /api/staff/kiosks as the server behaves (src-server/modules/kiosks/routes.ts), in memory: adding
 * answers 201 with a code, a new code keeps the state, revoking answers the revoked kiosk.
 */
export function kiosksServer(initial: Kiosk[] = [ENROLLED, UNPLACED]): KiosksServer {
  const server: KiosksServer = { routes: {}, kiosks: initial.map((kiosk) => ({ ...kiosk })), posts: [], override: {} };
  let codes = 0;
  const issue = (kiosk: Kiosk) => {
    codes += 1;
    return { kiosk, code: codes === 1 ? '7KQ3-M9XD' : 'H4TR-2WPA', expiresAt: '2026-03-19T23:45:00.000Z' };
  };
  const route = (key: string, handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>) => {
    server.routes[key] = overridable(server.override, key, handler);
  };
  route('GET /api/staff/kiosks', (_request, response) => json(response, 200, { kiosks: server.kiosks, silentAfterMinutes: 5 }));
  route('POST /api/staff/kiosks', async (request, response) => {
    const body = (await readJsonBody(request)) as { name: string; clinicSlug: string | null };
    server.posts.push({ path: '/api/staff/kiosks', body });
    const kiosk: Kiosk = { ...UNPLACED, id: NEW_ID, name: body.name, clinicSlug: body.clinicSlug };
    server.kiosks.push(kiosk);
    json(response, 201, issue(kiosk));
  });
  for (const kiosk of server.kiosks) {
    const base = `/api/staff/kiosks/${kiosk.id}`;
    route(`POST ${base}/enrollment-code`, (_request, response) => {
      server.posts.push({ path: `${base}/enrollment-code`, body: null });
      json(response, 201, issue(kiosk));
    });
    route(`POST ${base}/revoke`, (_request, response) => {
      server.posts.push({ path: `${base}/revoke`, body: null });
      Object.assign(kiosk, { state: 'REVOKED' });
      json(response, 200, kiosk);
    });
  }
  return server;
}
