import { describe, expect, it } from 'vitest';
import { createReleaseNotices, RESULTS_READY_KIND } from '../../../../src-server/modules/results/public';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { GRACE, HARPER } from '../patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV } from './results-kit';

// The results e-mail links the after-visit questionnaires still due (docs/rules/questionnaires.md#due):
// the pain score after and the feedback, from the visit's start for 30 days, back to the result page.

const DAY = 86_400_000;

describe.each(backends())('the results e-mail and the after-visit questionnaires on %s', (backend) => {
  const server = useTestApp({ backend, env: INTEGRATION_ENV });

  const notices = () =>
    createReleaseNotices({
      db: server.db,
      clock: server.clock,
      publicUrl: 'https://portal.example',
      providerName: () => Promise.resolve('Demo Radiology'),
    });

  const startOf = async (bookingKey: string): Promise<number> => {
    const rows = await server.db.query<{ starts_ms: string }>(
      `select (extract(epoch from min(lower(during))) * 1000)::bigint::text as starts_ms from appointment where booking_key = $1`,
      [bookingKey],
    );
    return Number(rows[0]?.starts_ms);
  };

  const mailTo = async (recipient: string): Promise<string> => {
    const rows = await server.db.query<{ text_body: string; html_body: string }>(
      `select text_body, html_body from outbox_mail where kind = $1 and recipient = $2`,
      [RESULTS_READY_KIND, recipient],
    );
    expect(rows).toHaveLength(1);
    return `${rows[0]?.text_body}\n${rows[0]?.html_body}`;
  };

  /** Delivers a report released an hour before `at`, with the clock at `at`, and sweeps. */
  const releaseAt = async (bookingKey: string, accessionNumber: string, at: number) => {
    const before = server.clock.now();
    server.clock.set(new Date(at));
    try {
      await deliverReport(server.app, server.db, bookingKey, { accessionNumber, releaseAt: new Date(at - 3_600_000).toISOString() });
      expect(await notices().sweep()).toBe(1);
    } finally {
      server.clock.set(before);
    }
  };

  it('two days after the visit the mail lists the pain score after and the feedback, linked on /q back to the result', async () => {
    await releaseAt(GRACE.bookingKey, 'ACC-Q-1', (await startOf(GRACE.bookingKey)) + 2 * DAY);
    const mail = await mailTo(GRACE.email);
    expect(mail).toContain('How was your visit?');
    expect(mail).toContain('Pain score after your procedure');
    expect(mail).toContain('How was booking your appointment?');
    const target = encodeURIComponent(`/appointments/${GRACE.bookingKey}/result`);
    expect(mail).toContain(
      `https://portal.example/q?bookingKey=${GRACE.bookingKey}&types=PAIN_SCORE_FINAL,FEEDBACK&target=${target}`.replaceAll('&', '&amp;'),
    );
    expect(mail).toContain(`https://portal.example/q?bookingKey=${GRACE.bookingKey}&types=PAIN_SCORE_FINAL,FEEDBACK&target=${target}`);
  });

  it('a report released more than 30 days after the visit asks for nothing more', async () => {
    await releaseAt(HARPER.bookingKey, 'ACC-Q-2', (await startOf(HARPER.bookingKey)) + 31 * DAY);
    const mail = await mailTo(HARPER.email);
    expect(mail).toContain(`https://portal.example/appointments/${HARPER.bookingKey}/result`);
    expect(mail).not.toContain('/q?');
    expect(mail).not.toContain('How was your visit?');
  });
});
