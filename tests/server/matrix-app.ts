import { beforeAll } from 'vitest';
import { createOutboxRepository } from '../../src-server/platform/outbox/outbox-repository';
import type { Backend } from './helpers/database';
import { useTestApp } from './helpers/test-app';
import { setOtpRequired } from './modules/patient-access/sign-in-kit';
import { useTestIdentityProvider } from './modules/staff-access/identity-kit';
import { createCallers, LIAM, MATRIX_ENV, MATRIX_ROLE_MAPPING, type Caller } from './route-access-matrix';

/**
 * The server that the route matrix (route-access.test.ts) and the malformed-input fuzz call every
 * route on: MATRIX_ENV and the matrix's staff roles; in beforeAll, Liam's appointment id, a mail in
 * the outbox (so the development outbox's 404 is a refusal, not "no such mail"), one-time codes
 * off, and a caller of each kind.
 */
export function useMatrixApp(backend: Backend) {
  const provider = useTestIdentityProvider();
  const server = useTestApp({
    backend,
    env: MATRIX_ENV,
    identity: () => ({ ...provider.options, roleMapping: MATRIX_ROLE_MAPPING }),
  });
  const ids = { appointmentId: '', mailId: '' };
  const callers: Caller[] = [];
  beforeAll(async () => {
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1 limit 1`, [
      LIAM.bookingKey,
    ]);
    ids.appointmentId = row?.id ?? '';
    const mail = {
      kind: 'booking_confirmation',
      recipient: 'route.access@example.com',
      subject: 'Route access',
      text: 'Route access',
    } as const;
    ids.mailId = String(await createOutboxRepository(server.db).enqueue(mail, server.clock.now()));
    await setOtpRequired(server.db, false);
    callers.push(...(await createCallers({ app: server.app, db: server.db, clock: server.clock, provider })));
  });
  return { provider, server, ids, callers };
}
