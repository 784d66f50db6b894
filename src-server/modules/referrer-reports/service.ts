import { quickReportPath } from '@contract/api/image-viewer';
import type { ReferrerReportListItem, ReferrerReportsPage, ReferrerReportsQuery } from '@contract/api/referrer-reports';
import { REFERRER_REPORTS_PAGE_SIZE } from '@contract/api/referrer-reports';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import type { SignedLinks } from '../../platform/signed-links';
import { mintReferrerImageLink } from '../results/public';
import { subjectRef, type StaffSession } from '../staff-access/public';
import { createReferrerReportsRepository, type ReferrerReportRow } from './repository';

/**
 * The referring doctor's report list (docs/rules/referrers.md#referrer-report-list): the reports
 * naming the signed-in referrer's provider number, newest first, each with a fresh referrer imsec
 * to the quick report. Every list view is audited with the referrer and what was shown, never the
 * search text (it is a patient's name).
 */

export interface ReferrerReportsDeps {
  db: Database;
  clock: Clock;
  /** The server's signed-link keys, read once on first use (platform/signed-links/lazy.ts). */
  signedLinks: () => Promise<SignedLinks>;
}

/** Splits a cursor `<sort value>~<id>` (the contract's schema checked its shape for the query's sort). */
function boundaryOf(cursor: string | undefined): { value: string; reportId: string } | null {
  if (cursor === undefined) return null;
  const split = cursor.lastIndexOf('~');
  return { value: cursor.slice(0, split), reportId: cursor.slice(split + 1) };
}

export function createReferrerReports(deps: ReferrerReportsDeps) {
  const repository = createReferrerReportsRepository(deps.db);
  const auditLog = createAuditLogRepository(deps.db);

  const rowOf = (links: SignedLinks, row: ReferrerReportRow): ReferrerReportListItem => ({
    reportId: row.reportId,
    patient: { firstName: row.firstName, lastName: row.lastName },
    dateOfBirth: row.dateOfBirth,
    examName: row.examName,
    clinicName: row.clinicName,
    accessionNumber: row.accessionNumber,
    reportedAt: row.reportedAt,
    released: row.released,
    unread: row.unread,
    quickReportPath: quickReportPath(mintReferrerImageLink(links, row.reportId)),
  });

  return {
    /** The signed-in referrer opened a report's quick report: from now on it is read for them (when it is theirs). */
    async markOpened(session: StaffSession, reportId: string): Promise<void> {
      if (session.providerNumber === null || !session.roles.includes('referrer')) return;
      await repository.markOpened({
        reportId,
        providerNumber: session.providerNumber,
        reader: subjectRef(session.subject),
        now: deps.clock.now(),
      });
    },

    async list(session: StaffSession, query: ReferrerReportsQuery): Promise<ReferrerReportsPage> {
      const now = deps.clock.now();
      const search = query.search === undefined || query.search === '' ? null : query.search.toLowerCase();
      const audit = (details: Record<string, unknown>) =>
        auditLog.record({
          actor: subjectRef(session.subject),
          action: 'referrer.reports_listed',
          subjectType: 'staff_session',
          subjectId: session.id,
          details: { searched: search !== null, paged: query.before !== undefined, ...details },
          now,
        });
      // No provider number, no rows: never a fallback to a name or to every report.
      if (session.providerNumber === null) {
        await audit({ count: 0, reason: 'no_provider_number' });
        return { reports: [], nextCursor: null, reason: 'no_provider_number' };
      }
      const rows = await repository.page({
        providerNumber: session.providerNumber,
        search,
        sort: query.sort,
        order: query.order,
        before: boundaryOf(query.before),
        reader: subjectRef(session.subject),
        limit: REFERRER_REPORTS_PAGE_SIZE + 1,
        now,
      });
      const shown = rows.slice(0, REFERRER_REPORTS_PAGE_SIZE);
      const last = shown.at(-1);
      const nextCursor = rows.length > REFERRER_REPORTS_PAGE_SIZE && last !== undefined ? `${last.sortValue}~${last.reportId}` : null;
      await audit({ count: shown.length, reportIds: shown.map((row) => row.reportId) });
      const links = await deps.signedLinks();
      return { reports: shown.map((row) => rowOf(links, row)), nextCursor, reason: null };
    },
  };
}

export type ReferrerReportsService = ReturnType<typeof createReferrerReports>;
