import { quickReportPath } from '@contract/api/image-viewer';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { createOutboxRepository, oneLineSubject } from '../../platform/outbox/outbox-repository';
import type { SignedLinks } from '../../platform/signed-links';
import { examDateInWords } from './exam-date';
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

export function referrerReportReadyMail(notice: {
  providerName: string;
  referrerName: string;
  patient: string;
  examName: string;
  examDate: string;
  accessionNumber: string;
  link: string;
}) {
  return {
    subject: oneLineSubject(`${notice.providerName}: report ready for ${notice.patient} (${notice.examName})`),
    text: [
      `Dear ${notice.referrerName},`,
      '',
      `The report of ${notice.patient}'s ${notice.examName} on ${notice.examDate} (accession ${notice.accessionNumber}) is ready.`,
      '',
      `Open the report and the images: ${notice.link}`,
      '',
      'The link is for you alone and works for 30 days. Every opening is recorded.',
      '',
    ].join('\n'),
  };
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
    const providerName = await deps.providerName();
    return (reportId, email, tx) => queueMail(links, providerName, reportId, email, tx);
  };

  async function queueMail(links: SignedLinks, providerName: string, reportId: string, email: string, tx: Queryable): Promise<void> {
    const facts = await createResultsRepository(tx).referrerReport(reportId);
    if (facts === null) throw new Error('[results] referrer notice: the report is not stored');
    const now = deps.clock.now();
    const examDate = examDateInWords(facts.starts_at, facts.time_zone);
    const imsec = mintReferrerImageLink(links, reportId);
    const mail = referrerReportReadyMail({
      providerName,
      referrerName: facts.referrer_name,
      patient: `${facts.first_name} ${facts.last_name.slice(0, 1)}.`,
      examName: facts.exam_name,
      examDate,
      accessionNumber: facts.accession_number,
      link: `${deps.publicUrl}${quickReportPath(imsec)}`,
    });
    await createOutboxRepository(tx).enqueue({ kind: REFERRER_REPORT_READY_KIND, recipient: email, ...mail }, now, tx);
  }
}
