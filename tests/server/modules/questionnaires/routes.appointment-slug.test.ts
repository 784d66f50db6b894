import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SESSION_REQUIRED_MESSAGE } from '../../../../src-server/modules/patient-access/public';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { AMELIA, authenticate, client, LIAM, setOtpRequired, type Client } from '../patient-access/sign-in-kit';

// GET /api/questionnaires/appointment-slugs/{id} names the booking key of an appointment only to
// the browser signed in (APPOINTMENT) to that very booking. Anyone else gets the same 401, whether
// the id exists or not, so an appointment id never turns into a booking key.

const REFUSED = { code: 'unauthorized', message: SESSION_REQUIRED_MESSAGE };

describe.each(backends())('appointment slug lookup on %s', (backend) => {
  const server = useTestApp({ backend });
  let ameliaAppointment = '';
  let amelia: Client;
  let liam: Client;

  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1 limit 1`, [
      AMELIA.bookingKey,
    ]);
    ameliaAppointment = row?.id ?? '';
    amelia = client(server.app);
    liam = client(server.app);
    expect((await authenticate(amelia, AMELIA)).statusCode).toBe(200);
    expect((await authenticate(liam, LIAM)).statusCode).toBe(200);
  });

  const lookup = (browser: Client | null, id: string) =>
    browser === null
      ? server.app.inject({ method: 'GET', url: `/api/questionnaires/appointment-slugs/${id}` })
      : browser.request('GET', `/api/questionnaires/appointment-slugs/${id}`);

  it('answers the booking key to the signed-in patient of that booking', async () => {
    const found = await lookup(amelia, ameliaAppointment);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({ bookingKey: AMELIA.bookingKey });
    expect(found.headers['cache-control']).toBe('no-store');
  });

  it('refuses an anonymous caller with 401', async () => {
    const response = await lookup(null, ameliaAppointment);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(REFUSED);
  });

  it("refuses another booking's session with 401", async () => {
    const response = await lookup(liam, ameliaAppointment);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(REFUSED);
    expect(response.body).not.toContain(AMELIA.bookingKey);
  });

  it('gives an unknown id the very same 401, signed in or not', async () => {
    for (const browser of [null, liam, amelia]) {
      const response = await lookup(browser, randomUUID());
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(REFUSED);
    }
    // A malformed id tells nothing either: the session is checked before the id is validated.
    expect((await lookup(null, 'not-a-slug')).json()).toEqual(REFUSED);
    expect((await lookup(amelia, 'not-a-slug')).statusCode).toBe(400);
  });
});
