import { z } from 'zod';
import { singleLineText } from './text';

/**
 * The referring doctor's report list (docs/rules/referrers.md#referrer-report-list): GET
 * /api/referrer/reports for a staff session with the referrer role. Newest first, 20 a page,
 * keyset-paged by `before` (the previous page's `nextCursor`), sortable by `sort` and `order`,
 * optionally narrowed by `search`: words in any order, each a prefix of the patient's first or last
 * name (any case) or of the accession number.
 */

export const REFERRER_REPORTS_PATH = '/api/referrer/reports';
export const REFERRER_REPORTS_PAGE_SIZE = 20;
export const REFERRER_SEARCH_MAX_LENGTH = 64;

/** The list's sort keys (the table's sortable columns); `date` is the delivery time. */
export const REFERRER_REPORT_SORTS = ['date', 'patient', 'dateOfBirth', 'exam', 'status'] as const;
export type ReferrerReportSort = (typeof REFERRER_REPORT_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** A lower-case name or exam: a single line of text (no control characters). */
const cursorText = (value: string): boolean => value.length <= 300 && !/\p{Cc}/u.test(value);

/** Whether a cursor's sort value has the shape of its sort key's: what the previous page's last row had. */
/** A real day and time (not 2026-02-30, nor before 1800, which the database would refuse with an error). */
const realInstant = (text: string): boolean => {
  const time = Date.parse(`${text}Z`);
  return !Number.isNaN(time) && time >= Date.UTC(1800, 0, 1) && new Date(time).toISOString().slice(0, 19) === text;
};

const CURSOR_VALUES: Record<ReferrerReportSort, (value: string) => boolean> = {
  date: (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3,6}Z$/.test(value) && realInstant(value.slice(0, 19)),
  dateOfBirth: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && realInstant(`${value}T00:00:00`),
  status: (value) => value === 'true' || value === 'false',
  patient: cursorText,
  exam: cursorText,
};

/**
 * A page boundary: the last row's sort value (for `date` its received_at, ISO-8601 UTC to the
 * microsecond) and its report id, joined by `~`. Opaque to the browser, which only hands back what
 * it was given; it must fit the query's sort.
 */
export const ReferrerReportsCursorSchema = z
  .string()
  .max(400)
  .regex(new RegExp(`^[\\s\\S]*~${UUID}$`), 'not a page cursor');

/** The sort value of a cursor (everything before its last `~`). */
export const cursorValueOf = (cursor: string): string => cursor.slice(0, cursor.lastIndexOf('~'));

export const ReferrerReportsQuerySchema = z
  .object({
    /** Trimmed; empty means no search. Words in any order, each a prefix of a name or the accession number. */
    search: singleLineText().trim().max(REFERRER_SEARCH_MAX_LENGTH).optional(),
    /** The table's sort; newest delivery first by default. */
    sort: z.enum(REFERRER_REPORT_SORTS).default('date'),
    order: z.enum(SORT_ORDERS).default('desc'),
    before: ReferrerReportsCursorSchema.optional(),
  })
  .superRefine((query, context) => {
    if (query.before !== undefined && !CURSOR_VALUES[query.sort](cursorValueOf(query.before)))
      context.addIssue({ code: 'custom', path: ['before'], message: 'not a page cursor for this sort' });
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
  /** The signed-in doctor has not opened its quick report yet. */
  unread: z.boolean(),
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
