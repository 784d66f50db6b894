import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../../src-server/db/connection';
import { deliverWithReferrerLink } from '../results/results-kit';

/** The referrer of the quick report journeys; the delivery names this address, so the mail comes here. */
export const REFERRER = { name: 'Dr Riley Referrer', providerNumber: '2426711A', email: 'riley.referrer@harbour-medical.example' };

/** Delivers a report naming REFERRER and answers its id and the imsec mailed to them. */
export function deliverForReferrer(
  app: FastifyInstance,
  db: Database,
  bookingKey: string,
  options: { accessionNumber: string; releaseAt: string; study?: string | null },
): Promise<{ reportId: string; imsec: string }> {
  return deliverWithReferrerLink(app, db, bookingKey, { ...options, referrer: REFERRER });
}
