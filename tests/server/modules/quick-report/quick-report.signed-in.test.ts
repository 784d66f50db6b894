import { beforeAll, describe, expect, it } from 'vitest';
import { subjectRef } from '../../../../src-server/modules/staff-access/public';
import { LIAM } from '../patient-access/sign-in-kit';
import { INTEGRATION_ENV } from '../results/results-kit';
import { REFERRER_CLAIMS, STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';
import { deliverForReferrer } from './quick-report-kit';

// Every opening of a quick report is audited with the referrer's identity when a referrer is
// signed in (docs/rules/referrers.md#quick-report): the staff session's subject reference, never
// the person's name or address; another role's session changes nothing (the link alone opened it).

describe('quick report opened by a signed-in referrer', () => {
  const { server, signedIn } = useStaffTestApp({ env: INTEGRATION_ENV });
  let imsec: string;

  beforeAll(async () => {
    ({ imsec } = await deliverForReferrer(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-QR-SIGNED',
      releaseAt: new Date(server.clock.now().getTime() + 86_400_000).toISOString(),
    }));
  });

  const lastOpening = async () =>
    (
      await server.db.query<{ actor: string }>(
        `select actor from audit_log where action = 'result.referrer_report_opened' order by id desc limit 1`,
      )
    )[0]?.actor;

  it.each([
    ['a referrer', REFERRER_CLAIMS, subjectRef(REFERRER_CLAIMS.oid)],
    ['a staff member (not the referrer)', STAFF_CLAIMS, 'referrer_link'],
  ])("names %s as the audit's actor accordingly", async (_who, claims, actor) => {
    const browser = await signedIn(claims);
    expect((await browser.request('GET', `/api/image_viewer_link/report?imsec=${encodeURIComponent(imsec)}`)).statusCode).toBe(200);
    expect(await lastOpening()).toBe(actor);
  });
});
