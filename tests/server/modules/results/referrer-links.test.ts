import { beforeAll, describe, expect, it } from 'vitest';
import { ImageViewerResponseSchema } from '@contract/api/image-viewer';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { client, LIAM } from '../patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV } from './results-kit';

// The referring doctor's imsec (docs/rules/referrers.md): a delivery naming the referrer's e-mail
// queues one report-ready mail with the quick report link; that link opens the report's images
// from delivery on (before the patient's release), is refused when changed, and expires.

const DAY = 86_400_000;
const REFERRER = { name: 'Dr Riley Referrer', providerNumber: '2426711A', email: 'riley.referrer@harbour-medical.example' };

describe.each(backends())('referrer image links on %s', (backend) => {
  const server = useTestApp({ backend, env: INTEGRATION_ENV });
  let imsec: string;
  let mailText: string;

  const referrerMails = () =>
    server.db.query<{ subject: string; text_body: string }>(
      `select subject, text_body from outbox_mail where recipient = $1 and kind = 'referrer_report_ready' order by id`,
      [REFERRER.email],
    );

  beforeAll(async () => {
    // Released to the patient only in a week: the referrer has it first.
    await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-REF-1',
      releaseAt: new Date(server.clock.now().getTime() + 7 * DAY).toISOString(),
      referrer: REFERRER,
    });
    const [mail] = await referrerMails();
    mailText = mail?.text_body ?? '';
    const link = /(https?:\/\/\S+\/referrer\/quick-report\?\S+)/.exec(mailText)?.[1] ?? '';
    const url = new URL(link);
    expect(url.searchParams.get('repositorySource')).toBe('default');
    imsec = url.searchParams.get('imsec') ?? '';
  });

  const open = (input: string) => client(server.app).request('GET', `/api/image_viewer?input=${encodeURIComponent(input)}`);

  it('mails the referrer once with the quick report link, naming the exam and the patient by first name and initial only', async () => {
    const mails = await referrerMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain('Report ready for Liam E.');
    expect(mailText).toContain('accession ACC-REF-1');
    expect(mailText).not.toContain(LIAM.dateOfBirth);
    expect(mailText).not.toMatch(/Example\b/);
    expect(imsec.split('.')).toHaveLength(4);
  });

  it("opens the report's images before the patient's release, audited as the referrer's opening", async () => {
    const answer = ImageViewerResponseSchema.parse((await open(imsec)).json());
    expect(answer.imageViewerLinkStatus).toBe('ACTIVE');
    expect(answer.url).toMatch(/^\/demo-viewer\?|^https?:/);
    const [audit] = await server.db.query<{ actor: string }>(
      `select actor from audit_log where action = 'result.images_opened' order by id desc limit 1`,
    );
    expect(audit?.actor).toBe('referrer');
  });

  it('refuses a changed link (403) and answers EXPIRED after 30 days', async () => {
    const last = imsec.at(-1) === 'A' ? 'B' : 'A';
    expect((await open(`${imsec.slice(0, -1)}${last}`)).statusCode).toBe(403);
    server.clock.advance(31 * DAY);
    try {
      expect(ImageViewerResponseSchema.parse((await open(imsec)).json()).imageViewerLinkStatus).toBe('EXPIRED');
    } finally {
      server.clock.advance(-31 * DAY);
    }
  });
});
