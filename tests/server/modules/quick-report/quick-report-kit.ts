import type { Database } from '../../../../src-server/db/connection';
import { deliverReport } from '../results/results-kit';
import type { FastifyInstance } from 'fastify';

/** The referrer of the quick report journeys; the delivery names this address, so the mail comes here. */
export const REFERRER = { name: 'Dr Riley Referrer', providerNumber: '2426711A', email: 'riley.referrer@harbour-medical.example' };

/**
 * Delivers a report naming REFERRER's e-mail and answers the imsec of the quick report link in the
 * report-ready mail (the newest mail to the referrer), as the referrer's mail client would have it.
 */
export async function deliverForReferrer(
  app: FastifyInstance,
  db: Database,
  bookingKey: string,
  options: { accessionNumber: string; releaseAt: string; study?: string | null },
): Promise<{ reportId: string; imsec: string }> {
  const reportId = await deliverReport(app, db, bookingKey, { ...options, referrer: REFERRER });
  const [mail] = await db.query<{ text_body: string }>(
    `select text_body from outbox_mail where recipient = $1 and kind = 'referrer_report_ready' order by id desc limit 1`,
    [REFERRER.email],
  );
  const link = /(https?:\/\/\S+\/referrer\/quick-report\?\S+)/.exec(mail?.text_body ?? '')?.[1];
  if (link === undefined) throw new Error('no quick report link was mailed to the referrer');
  return { reportId, imsec: new URL(link).searchParams.get('imsec') ?? '' };
}
