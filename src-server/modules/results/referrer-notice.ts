import { quickReportPath } from '@contract/api/image-viewer';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { createOutboxRepository } from '../../platform/outbox/outbox-repository';
import type { SignedLinks } from '../../platform/signed-links';
import { mailContext, referrerReportReadyMail } from '../notifications/public';
import { mintReferrerImageLink } from './image-links';
import { createResultsRepository } from './repository';

/**
 * The report-ready mail to the referring doctor (docs/rules/referrers.md#report-ready-mail): when
 * the RIS delivers a report with the referrer's e-mail, one mail with the quick report link (a
 * 30-day referrer imsec) is queued in the delivery's own transaction, so a delivery is never
 * stored without its mail nor mailed without being stored. The mail names the exam, its date and
 * the patient's first name and last initial: enough for the doctor to know whom it is about,
 * no finding.
 */

export const REFERRER_REPORT_READY_KIND = 'referrer_report_ready';

export interface ReferrerNoticeDeps {
  clock: Clock;
  publicUrl: string;
  providerName: () => Promise<string>;
  signedLinks: () => Promise<SignedLinks>;
}

/** Queues the mail inside the delivery's transaction. */
export type ReferrerNoticeWriter = (reportId: string, email: string, tx: Queryable) => Promise<void>;

/**
 * Answers the writer with the signing keys and the provider's name already read: those reads use
 * the database's own connection, which PGlite's single connection cannot give inside a transaction.
 */
export function createReferrerNotice(deps: ReferrerNoticeDeps): () => Promise<ReferrerNoticeWriter> {
  return async () => {
    const links = await deps.signedLinks();
    return (reportId, email, tx) => queueMail(links, reportId, email, tx);
  };

  async function queueMail(links: SignedLinks, reportId: string, email: string, tx: Queryable): Promise<void> {
    const facts = await createResultsRepository(tx).referrerReport(reportId);
    if (facts === null) throw new Error('[results] referrer notice: the report is not stored');
    const now = deps.clock.now();
    const imsec = mintReferrerImageLink(links, reportId);
    const mail = await referrerReportReadyMail(
      {
        referrerName: facts.referrer_name,
        patient: `${facts.first_name} ${facts.last_name.slice(0, 1)}.`,
        examName: facts.exam_name,
        startsAt: facts.starts_at,
        timeZone: facts.time_zone,
        accessionNumber: facts.accession_number,
        link: `${deps.publicUrl}${quickReportPath(imsec)}`,
      },
      await mailContext(tx, deps.publicUrl),
    );
    await createOutboxRepository(tx).enqueue({ kind: REFERRER_REPORT_READY_KIND, recipient: email, ...mail }, now, tx);
  }
}
