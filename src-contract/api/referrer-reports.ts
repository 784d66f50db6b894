import { z } from 'zod';
import { singleLineText } from './text';

/**
 * The referring doctor's report list (docs/rules/referrers.md#referrer-report-list): GET
 * /api/referrer/reports for a staff session with the referrer role. Newest first, 20 a page,
 * keyset-paged by `before` (the previous page's `nextCursor`), optionally narrowed by `search`: a
 * prefix of the patient's first or last name (any case) or of the accession number.
 */

export const REFERRER_REPORTS_PATH = '/api/referrer/reports';
export const REFERRER_REPORTS_PAGE_SIZE = 20;
export const REFERRER_SEARCH_MAX_LENGTH = 64;

/**
 * A page boundary: the last row's received_at (ISO-8601 UTC, to the microsecond) and its report id,
 * joined by `~`. Opaque to the browser, which only hands back what it was given.
 */
export const ReferrerReportsCursorSchema = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3,6}Z~[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    'not a page cursor',
  );

export const ReferrerReportsQuerySchema = z.object({
  /** Trimmed; empty means no search. */
  search: singleLineText().trim().max(REFERRER_SEARCH_MAX_LENGTH).optional(),
  before: ReferrerReportsCursorSchema.optional(),
});
export type ReferrerReportsQuery = z.infer<typeof ReferrerReportsQuerySchema>;

export const ReferrerReportListItemSchema = z.object({
  reportId: z.uuid(),
  patient: z.object({ firstName: z.string(), lastName: z.string() }),
  /** YYYY-MM-DD. */
  dateOfBirth: z.string(),
  examName: z.string(),
  clinicName: z.string(),
  accessionNumber: z.string(),
  /** When the report was delivered (received_at), ISO-8601 UTC. */
  reportedAt: z.string(),
  /** Whether the patient may read it yet (release_at has passed). */
  released: z.boolean(),
  /** /referrer/quick-report?imsec=…&repositorySource=default with a fresh 30-day referrer imsec. */
  quickReportPath: z.string(),
});
export type ReferrerReportListItem = z.infer<typeof ReferrerReportListItemSchema>;

/** Why a referrer's list is empty whatever they search: their identity provider issued no provider number. */
export const REFERRER_LIST_REASONS = ['no_provider_number'] as const;

export const ReferrerReportsPageSchema = z.object({
  reports: z.array(ReferrerReportListItemSchema),
  /** The `before` of the next page; null on the last page. */
  nextCursor: ReferrerReportsCursorSchema.nullable(),
  /** Set when the list is empty for a reason other than "no match". */
  reason: z.enum(REFERRER_LIST_REASONS).nullable(),
});
export type ReferrerReportsPage = z.infer<typeof ReferrerReportsPageSchema>;
