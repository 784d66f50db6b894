import type { FastifyRequest } from 'fastify';
import { KIOSK_TOKEN_COOKIE } from '@contract/api/kiosks';
import { appError } from '../../platform/errors';
import { readCookie } from '../patient-access/public';
import type { KioskRow } from './repository';
import type { KiosksService } from './service';

/**
 * The kiosk guard (docs/rules/kiosk.md#enrollment): a kiosk request carries the kiosk's token, as
 * the `__Host-portal_kiosk` cookie (a browser in kiosk mode) or `Authorization: Kiosk <token>`
 * (the kiosk app's main process adds it). No live token: 401 kiosk_not_enrolled, audited.
 */

export const KIOSK_NOT_ENROLLED_MESSAGE = 'This kiosk needs to be enrolled again. Please ask the clinic staff.';

const kiosks = new WeakMap<FastifyRequest, KioskRow>();

function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const bearer = typeof header === 'string' ? /^Kiosk ([A-Za-z0-9_-]{20,200})$/.exec(header)?.[1] : undefined;
  return bearer ?? readCookie(request.headers.cookie, KIOSK_TOKEN_COOKIE);
}

export function requireKiosk(service: KiosksService) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = tokenOf(request);
    const kiosk = token === null ? null : await service.byToken(token);
    if (kiosk === null) {
      await request.server.securityAudit.refused(request, { reason: token === null ? 'kiosk_no_token' : 'kiosk_token_not_live' });
      throw appError('kiosk_not_enrolled', 401, KIOSK_NOT_ENROLLED_MESSAGE);
    }
    kiosks.set(request, kiosk);
  };
}

/** The kiosk requireKiosk found (throws when the route has no kiosk check: a programming error). */
export function kioskOf(request: FastifyRequest): KioskRow {
  const kiosk = kiosks.get(request);
  if (kiosk === undefined) throw new Error('[kiosks] kioskOf: the route has no kiosk check');
  return kiosk;
}
