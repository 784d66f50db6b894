import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { LIAM, type Client } from '../patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV, resultsSignIn } from '../results/results-kit';
import { share } from './shares-kit';

// The share dialog's limits (share-dialog-store.ts, share-results-dialog.tsx), called directly
// (docs/rules/server-enforced.md#result-sharing): the provider's own note length, and the contact name.

describe.each(backends())('share rules the web checks, enforced by the server on %s', (backend) => {
  const server = useTestApp({ backend, env: INTEGRATION_ENV });
  let liam: Client;

  const shareCount = async (): Promise<number> =>
    (await server.db.query<{ n: number }>(`select count(*)::int as n from result_share`))[0]?.n ?? -1;

  beforeAll(async () => {
    const now = server.clock.now().getTime();
    await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-WR-1',
      releaseAt: new Date(now - 86_400_000).toISOString(),
    });
    liam = await resultsSignIn(server.app, server.db, LIAM);
  });
  afterEach(async () => {
    await server.db.query(`update provider set app_config = app_config - 'shareNoteMaxLength' where id = 1`);
  });

  it("refuses a note over the provider's configured length (here 40), and takes one of exactly 40", async () => {
    await server.db.query(`update provider set app_config = jsonb_set(app_config, '{shareNoteMaxLength}', '40') where id = 1`);
    const before = await shareCount();
    const long = await share(liam, LIAM.bookingKey, { note: 'n'.repeat(41) });
    expect(long.response.statusCode, long.response.body).toBe(400);
    expect(long.response.json()).toMatchObject({ code: 'validation_failed' });
    expect(await shareCount()).toBe(before);
    const fits = await share(liam, LIAM.bookingKey, { note: 'n'.repeat(40) });
    expect(fits.response.statusCode, fits.response.body).toBe(201);
  });

  it('refuses a contact name over 100 characters and stores nothing', async () => {
    const before = await shareCount();
    const refused = await share(liam, LIAM.bookingKey, { contactName: 'N'.repeat(101) });
    expect(refused.response.statusCode).toBe(400);
    expect(refused.response.json()).toMatchObject({ code: 'validation_failed' });
    expect(await shareCount()).toBe(before);
  });
});
