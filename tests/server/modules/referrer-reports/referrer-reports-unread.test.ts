import { beforeAll, describe, expect, it } from 'vitest';
import { type ReferrerReportListItem, type ReferrerReportsPage } from '@contract/api/referrer-reports';
import { subjectRef } from '../../../../src-server/modules/staff-access/public';
import { backends } from '../../helpers/database';
import { client } from '../patient-access/sign-in-kit';
import { REFERRER_CLAIMS, STAFF_CLAIMS, useStaffTestApp, type StaffBrowser } from '../staff-access/identity-kit';
import { addReports, listReports, MINE, OTHERS } from './referrer-reports-kit';

// The report list's unread marker and sorting (docs/rules/referrers.md#unread-reports) on a real
// database: a report is unread for a doctor until that doctor, signed in with the report's
// provider number, opens its quick report; the table sorts by each column, paged by a cursor.

const RILEY = { ...REFERRER_CLAIMS, oid: '0a8e6f0c-0000-4000-8000-0000000000b1', provider_number: MINE };
/** A colleague under the same provider number (a locum): their openings are their own. */
const LOCUM = { ...REFERRER_CLAIMS, oid: '0a8e6f0c-0000-4000-8000-0000000000b2', provider_number: MINE };
const OTHER_REFERRER = { ...REFERRER_CLAIMS, oid: '0a8e6f0c-0000-4000-8000-0000000000b3', provider_number: OTHERS };

describe.each(backends())('the referrer list: unread reports and sorting on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend });
  let riley: StaffBrowser;

  /** Every page of a sort, following the cursor. */
  async function all(browser: StaffBrowser, query: Record<string, string>): Promise<ReferrerReportListItem[]> {
    const rows: ReferrerReportListItem[] = [];
    let before: string | null = null;
    do {
      const page: ReferrerReportsPage = await listReports(browser, before === null ? query : { ...query, before });
      rows.push(...page.reports);
      before = page.nextCursor;
    } while (before !== null);
    return rows;
  }

  /** Opens a report's quick report as the browser (signed in or not) would from its link. */
  async function open(browser: { request: StaffBrowser['request'] }, report: ReferrerReportListItem): Promise<void> {
    const imsec = new URL(report.quickReportPath, 'https://portal.example').searchParams.get('imsec') ?? '';
    const response = await browser.request('GET', `/api/image_viewer_link/report?imsec=${encodeURIComponent(imsec)}`);
    expect(response.statusCode, response.body).toBe(200);
  }

  const unreadOf = async (browser: StaffBrowser) =>
    new Map((await all(browser, {})).map((report) => [report.accessionNumber, report.unread] as const));
  const byAccession = async (browser: StaffBrowser, accession: string) => {
    const found = (await all(browser, {})).find((report) => report.accessionNumber === accession);
    if (found === undefined) throw new Error(`${accession} not listed`);
    return found;
  };

  beforeAll(async () => {
    await addReports(server.db, server.clock.now());
    riley = await signedIn(RILEY);
  });

  it("marks every report unread until the doctor opens it, then read for that doctor only, keeping the first opening's time", async () => {
    const before = await unreadOf(riley);
    expect(before.size).toBe(25);
    expect([...before.values()].every(Boolean)).toBe(true);

    const report = await byAccession(riley, 'RL-MINE-07');
    await open(riley, report);
    const after = await unreadOf(riley);
    expect(after.get('RL-MINE-07')).toBe(false);
    expect([...after.entries()].filter(([, unread]) => !unread).map(([accession]) => accession)).toEqual(['RL-MINE-07']);

    const firstOpening = async () =>
      (
        await server.db.query<{ reader: string; first_opened_at: string }>(
          `select reader, first_opened_at::text from referrer_report_read where report_id = $1::uuid`,
          [report.reportId],
        )
      ).map((row) => ({ ...row }));
    const [first] = await firstOpening();
    expect(first?.reader).toBe(subjectRef(RILEY.oid));
    server.clock.advance(60_000);
    await open(riley, report);
    expect(await firstOpening()).toEqual([first]);

    // A colleague under the same number still sees it unread, and their opening is theirs alone.
    const locum = await signedIn(LOCUM);
    expect((await byAccession(locum, 'RL-MINE-07')).unread).toBe(true);
    await open(locum, await byAccession(locum, 'RL-MINE-08'));
    expect((await byAccession(locum, 'RL-MINE-08')).unread).toBe(false);
    expect((await byAccession(riley, 'RL-MINE-08')).unread).toBe(true);
  });

  it('marks nothing when the link is opened by another doctor, by staff, or without a referrer session', async () => {
    const report = await byAccession(riley, 'RL-MINE-12');
    const count = async () =>
      (
        await server.db.query<{ n: number }>(`select count(*)::int as n from referrer_report_read where report_id = $1::uuid`, [
          report.reportId,
        ])
      )[0]?.n;
    // The link itself opens the report for anyone holding it (the imsec is the credential) ...
    await open(await signedIn(OTHER_REFERRER), report);
    await open(await signedIn(STAFF_CLAIMS), report);
    await open(client(server.app), report);
    // ... but only its own referrer's opening is an opening of theirs.
    expect(await count()).toBe(0);
    expect((await byAccession(riley, 'RL-MINE-12')).unread).toBe(true);
    // The other doctor's list never shows Riley's reports, read or not.
    expect((await all(await signedIn(OTHER_REFERRER), {})).map((row) => row.accessionNumber)).toEqual([
      'RL-OTHER-1',
      'RL-OTHER-2',
      'RL-OTHER-3',
      'RL-OTHER-4',
    ]);
  });

  it('sorts by the delivery date either way, every report once across the pages', async () => {
    const newest = (await all(riley, {})).map((row) => row.accessionNumber);
    const oldest = (await all(riley, { sort: 'date', order: 'asc' })).map((row) => row.accessionNumber);
    expect(newest).toEqual(Array.from({ length: 25 }, (_, i) => `RL-MINE-${String(25 - i).padStart(2, '0')}`));
    expect(oldest).toEqual([...newest].reverse());
  });

  it.each(['asc', 'desc'] as const)(
    'sorts by patient, date of birth, exam and status (%s), paged without gaps or repeats',
    async (order) => {
      const direction = order === 'asc' ? 1 : -1;
      for (const [sort, keyOf] of [
        ['patient', (row: ReferrerReportListItem) => `${row.patient.lastName} ${row.patient.firstName}`.toLowerCase()],
        ['dateOfBirth', (row: ReferrerReportListItem) => row.dateOfBirth],
        ['exam', (row: ReferrerReportListItem) => row.examName.toLowerCase()],
        ['status', (row: ReferrerReportListItem) => (row.released ? '1' : '0')],
      ] as const) {
        const rows = await all(riley, { sort, order });
        expect(new Set(rows.map((row) => row.reportId)).size, sort).toBe(25);
        // The database's own order of the same key in one query: the pages joined give exactly it.
        const [expression] = {
          patient: [`lower(p.last_name || ' ' || p.first_name)`],
          dateOfBirth: ['p.date_of_birth'],
          exam: ['lower(e.name)'],
          status: [`(r.release_at <= now())`],
        }[sort];
        const expected = await server.db.query<{ id: string }>(
          `select r.id::text as id from result_report r join appointment a on a.id = r.appointment_id
           join patient p on p.id = a.patient_id join exam e on e.id = a.exam_id
          where r.referrer_provider_number = $1 order by ${expression} ${order}, r.id ${order}`,
          [MINE],
        );
        if (sort !== 'status')
          expect(
            rows.map((row) => row.reportId),
            sort,
          ).toEqual(expected.map((row) => row.id));
        // Whatever the collation, the first letters (and dates, and states) never go back.
        const keys = rows.map((row) => (sort === 'patient' || sort === 'exam' ? keyOf(row).slice(0, 1) : keyOf(row)));
        for (let i = 1; i < keys.length; i += 1)
          expect(direction * (keys[i] ?? '').localeCompare(keys[i - 1] ?? ''), `${sort} ${keys.join(',')}`).toBeGreaterThanOrEqual(0);
        expect(new Set(keys).size, `${sort} has more than one value here`).toBeGreaterThan(1);
      }
    },
  );

  it('refuses an unknown sort or order, and a cursor of another sort (400)', async () => {
    const first = await listReports(riley);
    for (const query of [
      'sort=clinic',
      'order=up',
      `sort=dateOfBirth&before=${encodeURIComponent(first.nextCursor ?? '')}`,
      `sort=status&before=${encodeURIComponent(first.nextCursor ?? '')}`,
      'sort=patient&before=no-cursor',
      // The right shape but no real day: refused before the database is asked.
      `sort=dateOfBirth&before=2026-02-30~${first.reports[0]?.reportId ?? ''}`,
      `sort=date&before=2026-13-01T00:00:00.000000Z~${first.reports[0]?.reportId ?? ''}`,
      `sort=dateOfBirth&before=0000-01-01~${first.reports[0]?.reportId ?? ''}`,
    ]) {
      const response = await riley.request('GET', `/api/referrer/reports?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    // Nothing was marked or changed by the refusals.
    expect((await server.db.query<{ n: number }>(`select count(*)::int as n from referrer_report_read`))[0]?.n).toBe(2);
  });
});
