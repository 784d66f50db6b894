import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { cookieFrom, type CookieBrowser } from '../../helpers/cookie-browser';
import { CLIENT_HEADERS } from '../appointments/self-service-kit';
import { useStaffTestApp } from '../staff-access/identity-kit';
import { addEnrolledKiosk, OLIVIA, SEED, startKioskTests } from './kiosk-kit';
import { handoffRows } from '../check-in/check-in-kit';

// The kiosk's web app stops at the identity step when disabledReason says NOT_YET_OPEN,
// CHECK_IN_DISABLED or ALREADY_CHECKED_IN; the check-in call itself refuses the same cases when a
// script skips that step (docs/rules/server-enforced.md#kiosk-check-in).

const ADDRESS = '198.51.100.60';

describe.each(backends())('kiosk check-in rules the web checks, enforced by the server on %s', (backend) => {
  const staffApp = useStaffTestApp({ backend });
  const { server } = staffApp;
  let kiosk: CookieBrowser;
  let url: string;
  let examId: string;

  /** Olivia signs in at the kiosk and asks to check in, skipping the identity step's verdict. */
  async function checkIn() {
    const signIn = await server.app.inject({
      method: 'POST',
      url: '/api/patient-access/authenticate',
      remoteAddress: ADDRESS,
      headers: CLIENT_HEADERS,
      payload: { bookingKey: OLIVIA.bookingKey, type: 'APPOINTMENT', dateOfBirth: OLIVIA.dateOfBirth },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const session = cookieFrom(signIn, '__Host-portal_session') ?? '';
    return kiosk.request('POST', url, {}, { cookie: `__Host-portal_kiosk=${kiosk.token ?? ''}; __Host-portal_session=${session}` });
  }

  beforeAll(async () => {
    const admin = await startKioskTests(staffApp);
    kiosk = (await addEnrolledKiosk(server.app, admin, { name: 'Parramatta lobby 9', clinicSlug: 'parramatta' }, ADDRESS)).browser;
    const [row] = await server.db.query<{ id: string; exam_id: string }>(
      `select id::text as id, exam_id::text as exam_id from appointment where booking_key = $1`,
      [OLIVIA.bookingKey],
    );
    url = `/api/kiosk/check-in/${OLIVIA.bookingKey}/${row?.id ?? ''}`;
    examId = row?.exam_id ?? '';
  });
  beforeEach(async () => {
    server.clock.set(SEED);
    await server.db.query('delete from ris_handoff');
    await server.db.query('delete from check_in');
    await server.db.query(`update exam set check_in_enabled = true where id = $1::uuid`, [examId]);
  });

  it('refuses a kiosk check-in before the window opens (409 check_in_window_closed, naming priorMinutes) and hands nothing over', async () => {
    server.clock.set(new Date(SEED.getTime() - 90 * 60_000));
    const early = await checkIn();
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toMatchObject({ code: 'check_in_window_closed', details: { priorMinutes: 120 } });
    expect(await handoffRows(server.db)).toEqual([]);
  });

  it('refuses a kiosk check-in for an exam without check-in (409 check_in_not_ready) and hands nothing over', async () => {
    await server.db.query(`update exam set check_in_enabled = false where id = $1::uuid`, [examId]);
    const refused = await checkIn();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'check_in_not_ready' });
    expect(await handoffRows(server.db)).toEqual([]);
  });
});
