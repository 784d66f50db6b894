import { beforeAll, describe, expect, it } from 'vitest';
import { createReleaseNotices, RESULTS_READY_KIND } from '../../../../src-server/modules/results/public';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { AMELIA, LIAM } from '../patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV } from './results-kit';

// The results e-mail (docs/rules/results.md#results-e-mail): one per report, once its release
// time has come, with the link to the result page and nothing of the report itself.

describe.each(backends())('results e-mail on %s', (backend) => {
  const server = useTestApp({ backend, env: INTEGRATION_ENV });
  const DAY = 86_400_000;

  beforeAll(async () => {
    const now = server.clock.now().getTime();
    await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-N-1',
      releaseAt: new Date(now - DAY).toISOString(),
      reportText: 'Impression: a finding nobody may read in an e-mail.',
    });
    await deliverReport(server.app, server.db, AMELIA.bookingKey, {
      accessionNumber: 'ACC-N-2',
      releaseAt: new Date(now + 2 * DAY).toISOString(),
    });
  });

  const mails = (recipient: string) =>
    server.db.query<{ subject: string; text_body: string }>(
      `select subject, text_body from outbox_mail where kind = $1 and recipient = $2`,
      [RESULTS_READY_KIND, recipient],
    );

  it('mails each released report once with its result link, and a later one when its time comes', async () => {
    const notices = createReleaseNotices({
      db: server.db,
      clock: server.clock,
      publicUrl: 'https://portal.example',
      providerName: () => Promise.resolve('Demo Radiology'),
    });
    await notices.sweep();
    expect(await notices.sweep()).toBe(0);
    const [mail, ...more] = await mails(LIAM.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toMatch(/^Harbour & Range Radiology: Your .+ results are ready$/);
    expect(mail?.text_body).toContain(`https://portal.example/appointments/${LIAM.bookingKey}/result`);
    expect(mail?.text_body).not.toContain('finding');
    expect(mail?.text_body).not.toContain(LIAM.dateOfBirth);
    expect(await mails(AMELIA.email)).toEqual([]);

    server.clock.advance(3 * DAY);
    try {
      expect(await notices.sweep()).toBe(1);
      expect(await mails(AMELIA.email)).toHaveLength(1);
    } finally {
      server.clock.advance(-3 * DAY);
    }
  });
});
