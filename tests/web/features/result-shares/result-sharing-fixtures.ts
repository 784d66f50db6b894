import type { ShareList, ShareRecord, ShareRequest } from '@contract/api/result-shares';
import { json, overridable, readJsonBody, type RouteHandler, type RouteOverride } from '../../helpers/api-server';

export const BOOKING_KEY = 'bk_share_0123456789abcdefgh';
export const SHARES_PATH = `/api/results/${BOOKING_KEY}/shares`;

/** The app's clock in these tests: noon UTC on 25 November 2026. */
export const NOW = new Date('2026-11-25T12:00:00.000Z');

/** Shared with Ana by e-mail on 10 November, opened twice (the newest first). */
export const OPENED: ShareRecord = {
  id: '1b7c2a8e-3d4f-4a5b-8c6d-7e8f9a0b1c2d',
  type: 'RESULT',
  contactDetails: 'ana@example.com',
  contactDetailsType: 'EMAIL',
  contactName: 'Ana',
  note: null,
  dateCreatedUTC: '2026-11-10T09:00:00.000Z',
  expiresAtUTC: '2026-12-10T09:00:00.000Z',
  dateRevoked: null,
  accessCount: 2,
  accesses: [{ openedAtUTC: '2026-11-12T08:30:00.000Z' }, { openedAtUTC: '2026-11-11T19:15:00.000Z' }],
};

/** Shared by SMS on 20 November, never opened. */
export const UNOPENED: ShareRecord = {
  id: '2c8d3b9f-4e5a-4b6c-9d7e-8f9a0b1c2d3e',
  type: 'RESULT',
  contactDetails: '+61412345678',
  contactDetailsType: 'PHONE',
  contactName: null,
  note: 'See you Friday',
  dateCreatedUTC: '2026-11-20T09:00:00.000Z',
  expiresAtUTC: '2026-12-20T09:00:00.000Z',
  dateRevoked: null,
  accessCount: 0,
  accesses: [],
};

/** Shared in October and run out on 1 November. */
export const EXPIRED: ShareRecord = {
  id: '3d9e4c0a-5f6b-4c7d-8e8f-9a0b1c2d3e4f',
  type: 'RESULT',
  contactDetails: 'old@example.com',
  contactDetailsType: 'EMAIL',
  contactName: null,
  note: null,
  dateCreatedUTC: '2026-10-02T09:00:00.000Z',
  expiresAtUTC: '2026-11-01T09:00:00.000Z',
  dateRevoked: null,
  accessCount: 0,
  accesses: [],
};

export const NEW_ID = '4e0f5d1b-6a7c-4d8e-9f0a-1b2c3d4e5f6a';

export interface SharesServer {
  routes: Record<string, RouteHandler>;
  /** The bodies of the share requests the server received. */
  posts: ShareRequest[];
  revokes: string[];
  override: Record<string, RouteOverride>;
}

/**
 * The share routes as the real server answers them (src-server/modules/result-shares/routes.ts),
 * keeping the shares in memory: list, share (201 with the new share) and revoke.
 */
export function sharesServer(options: { shares?: ShareRecord[]; smsEnabled?: boolean; noteMaxLength?: number } = {}): SharesServer {
  let shares = [...(options.shares ?? [OPENED, UNOPENED])];
  const posts: ShareRequest[] = [];
  const revokes: string[] = [];
  const override: Record<string, RouteOverride> = {};
  const listBody = (): ShareList => ({ shares, smsEnabled: options.smsEnabled ?? false, noteMaxLength: options.noteMaxLength ?? 150 });

  const routed = (key: string, handler: RouteHandler): RouteHandler => overridable(override, key, handler);

  const routes: Record<string, RouteHandler> = {
    [`GET ${SHARES_PATH}`]: routed('list', (_request, response) => json(response, 200, listBody())),
    [`POST ${SHARES_PATH}`]: routed('create', (request, response) => {
      void readJsonBody(request).then((body) => {
        const share = body as ShareRequest;
        posts.push(share);
        const created: ShareRecord = {
          id: NEW_ID,
          type: share.type,
          contactDetails: share.contactDetails,
          contactDetailsType: share.contactDetailsType,
          contactName: share.contactName ?? null,
          note: share.note ?? null,
          dateCreatedUTC: '2026-11-25T12:00:00.000Z',
          expiresAtUTC: '2026-12-25T12:00:00.000Z',
          dateRevoked: null,
          accessCount: 0,
          accesses: [],
        };
        shares = [created, ...shares];
        json(response, 201, created);
      });
    }),
  };
  for (const share of shares) {
    routes[`POST ${SHARES_PATH}/${share.id}/revoke`] = routed('revoke', (_request, response) => {
      revokes.push(share.id);
      const revoked = { ...share, dateRevoked: '2026-11-25T12:00:00.000Z' };
      shares = shares.map((candidate) => (candidate.id === share.id ? revoked : candidate));
      json(response, 200, revoked);
    });
  }
  return { routes, posts, revokes, override };
}

/** An answer with a status and the server's error body. */
export const refuse =
  (status: number, body: { code: string; message: string; details?: unknown }): RouteOverride =>
  (_request, response) =>
    json(response, status, body);
