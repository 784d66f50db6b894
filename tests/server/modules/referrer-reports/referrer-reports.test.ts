import { beforeAll, describe, expect, it } from 'vitest';
import { ImageViewerResponseSchema } from '@contract/api/image-viewer';
import type { ReferrerReportListItem } from '@contract/api/referrer-reports';
import { createReferrerReportsRepository } from '../../../../src-server/modules/referrer-reports/repository';
import { backends } from '../../helpers/database';
import { addReports, listReports, MINE, OTHERS } from './referrer-reports-kit';
import { client } from '../patient-access/sign-in-kit';
import {
  ADMIN_CLAIMS,
  KIOSK_ADMIN_CLAIMS,
  REFERRER_CLAIMS,
  STAFF_CLAIMS,
  useStaffTestApp,
  type StaffBrowser,
} from '../staff-access/identity-kit';

// The referring doctor's report list (docs/rules/referrers.md#referrer-report-list) on a real
// database: a referrer sees only the reports naming their own provider number (the token's claim,
// kept on the session), newest first in pages of 20, searchable by patient name or accession.

const RILEY = { ...REFERRER_CLAIMS, oid: '0a8e6f0c-0000-4000-8000-0000000000a1', provider_number: MINE };
const OTHER_REFERRER = { ...REFERRER_CLAIMS, oid: '0a8e6f0c-0000-4000-8000-0000000000a2', provider_number: OTHERS };
/** The repository's filter for Riley's newest first, a page and one more. */
const BASE_FILTER = {
  providerNumber: MINE,
  sort: 'date',
  order: 'desc',
  before: null,
  limit: 21,
  reader: 'staff:0000000000000000',
} as const;

describe.each(backends())('GET /api/referrer/reports on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend });
  let riley: StaffBrowser;

  const accessions = (reports: ReferrerReportListItem[]) => reports.map((report) => report.accessionNumber);

  beforeAll(async () => {
    await addReports(server.db, server.clock.now());
    riley = await signedIn(RILEY);
  });

  it("keeps the referrer's provider number from the token on the session, and only a referrer's", async () => {
    const [row] = await server.db.query<{ provider_number: string | null }>(
      `select provider_number from staff_session where subject = $1`,
      [RILEY.oid],
    );
    expect(row?.provider_number).toBe(MINE);
    await signedIn({ ...STAFF_CLAIMS, provider_number: OTHERS });
    const [staff] = await server.db.query<{ provider_number: string | null }>(
      `select provider_number from staff_session where subject = $1`,
      [STAFF_CLAIMS.oid],
    );
    expect(staff?.provider_number).toBeNull();
  });

  it('lists only reports naming the referrer, newest first, 20 a page, then the rest by the cursor', async () => {
    const first = await listReports(riley);
    expect(first.reason).toBeNull();
    expect(accessions(first.reports)).toEqual(Array.from({ length: 20 }, (_, i) => `RL-MINE-${String(25 - i).padStart(2, '0')}`));
    expect(first.nextCursor).not.toBeNull();
    const second = await listReports(riley, { before: first.nextCursor ?? '' });
    expect(accessions(second.reports)).toEqual(['RL-MINE-05', 'RL-MINE-04', 'RL-MINE-03', 'RL-MINE-02', 'RL-MINE-01']);
    expect(second.nextCursor).toBeNull();
    const times = [...first.reports, ...second.reports].map((report) => Date.parse(report.reportedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('answers each row with the patient, the exam, the clinic, released or not, and a referrer link to the quick report', async () => {
    const [newest] = (await listReports(riley)).reports;
    if (newest === undefined) throw new Error('no report listed');
    const [expected] = await server.db.query<{ first_name: string; last_name: string; dob: string; exam: string; clinic: string }>(
      `select p.first_name, p.last_name, p.date_of_birth::text as dob, e.name as exam, c.name as clinic
         from result_report r join appointment a on a.id = r.appointment_id join patient p on p.id = a.patient_id
         join exam e on e.id = a.exam_id join clinic c on c.id = a.clinic_id where r.accession_number = 'RL-MINE-25'`,
    );
    expect(newest).toMatchObject({
      patient: { firstName: expected?.first_name, lastName: expected?.last_name },
      dateOfBirth: expected?.dob,
      examName: expected?.exam,
      clinicName: expected?.clinic,
      released: true,
    });
    const reports = (await listReports(riley)).reports;
    expect(reports.find((report) => report.accessionNumber === 'RL-MINE-24')?.released).toBe(false);

    const url = new URL(newest.quickReportPath, 'https://portal.example');
    expect(url.pathname).toBe('/referrer/quick-report');
    expect(url.searchParams.get('repositorySource')).toBe('default');
    const opened = await client(server.app).request(
      'GET',
      `/api/image_viewer?input=${encodeURIComponent(url.searchParams.get('imsec') ?? '')}`,
    );
    expect(ImageViewerResponseSchema.parse(opened.json()).imageViewerLinkStatus).toBe('ACTIVE');
    const [audit] = await server.db.query<{ actor: string; subject_id: string }>(
      `select actor, subject_id from audit_log where action = 'result.images_opened' order by id desc limit 1`,
    );
    expect(audit).toEqual({ actor: 'referrer', subject_id: newest.reportId });
  });

  it("searches the referrer's own reports by the patient's first or last name (any case) and by accession number prefix", async () => {
    const [mine] = await server.db.query<{ first_name: string; last_name: string }>(
      `select p.first_name, p.last_name from result_report r join appointment a on a.id = r.appointment_id
         join patient p on p.id = a.patient_id where r.accession_number = 'RL-MINE-07'`,
    );
    const last = mine?.last_name ?? '';
    const byLast = await listReports(riley, { search: ` ${last.slice(0, 3).toUpperCase()} ` });
    expect(accessions(byLast.reports)).toContain('RL-MINE-07');
    for (const report of byLast.reports) {
      expect(report.accessionNumber).toMatch(/^RL-MINE-/);
      const prefix = last.slice(0, 3).toLowerCase();
      expect([report.patient.firstName, report.patient.lastName].some((name) => name.toLowerCase().startsWith(prefix))).toBe(true);
    }
    const byFirst = await listReports(riley, { search: (mine?.first_name ?? '').toLowerCase() });
    expect(accessions(byFirst.reports)).toContain('RL-MINE-07');

    expect(accessions((await listReports(riley, { search: 'rl-mine-1' })).reports)).toEqual([
      'RL-MINE-19',
      'RL-MINE-18',
      'RL-MINE-17',
      'RL-MINE-16',
      'RL-MINE-15',
      'RL-MINE-14',
      'RL-MINE-13',
      'RL-MINE-12',
      'RL-MINE-11',
      'RL-MINE-10',
    ]);
    // Another referrer's accession numbers find nothing; LIKE wildcards are taken literally.
    expect((await listReports(riley, { search: 'RL-OTHER' })).reports).toEqual([]);
    expect((await listReports(riley, { search: '%' })).reports).toEqual([]);
    expect((await listReports(riley, { search: 'RL_MINE' })).reports).toEqual([]);
  });

  it('finds a patient by first and last name in either order, each word a prefix of a name or the accession number', async () => {
    const [mine] = await server.db.query<{ first_name: string; last_name: string }>(
      `select p.first_name, p.last_name from result_report r join appointment a on a.id = r.appointment_id
         join patient p on p.id = a.patient_id where r.accession_number = 'RL-MINE-07'`,
    );
    const first = mine?.first_name ?? '';
    const last = mine?.last_name ?? '';
    const isThePatient = (report: { patient: { firstName: string; lastName: string } }) =>
      report.patient.firstName === first && report.patient.lastName === last;
    // The whole name, either way round: only this patient's reports.
    for (const search of [`${first} ${last}`, `${last}  ${first}`]) {
      const found = await listReports(riley, { search });
      expect(accessions(found.reports), search).toContain('RL-MINE-07');
      expect(found.reports.every(isThePatient), search).toBe(true);
    }
    // Prefixes in any case, and a name with an accession number.
    for (const search of [`${last.slice(0, 2)} ${first.slice(0, 2)}`.toUpperCase(), `${first} rl-mine-07`]) {
      expect(accessions((await listReports(riley, { search })).reports), search).toContain('RL-MINE-07');
    }
    expect((await listReports(riley, { search: `${first} zzq` })).reports).toEqual([]);
    expect((await listReports(riley, { search: `${first} RL-OTHER` })).reports).toEqual([]);
  });

  it('shows another referrer only their own patients, and a referrer without a provider number nothing, saying why', async () => {
    const other = await signedIn(OTHER_REFERRER);
    expect(accessions((await listReports(other)).reports)).toEqual(['RL-OTHER-1', 'RL-OTHER-2', 'RL-OTHER-3', 'RL-OTHER-4']);
    expect((await listReports(other, { search: 'RL-MINE' })).reports).toEqual([]);

    const numberless = await signedIn({ ...REFERRER_CLAIMS, oid: '0a8e6f0c-0000-4000-8000-0000000000a3' });
    expect(await listReports(numberless)).toEqual({ reports: [], nextCursor: null, reason: 'no_provider_number' });
    // A malformed number is no number: never a partial match on someone else's.
    const malformed = await signedIn({
      ...REFERRER_CLAIMS,
      oid: '0a8e6f0c-0000-4000-8000-0000000000a4',
      provider_number: "2426711A' or 1=1",
    });
    expect((await listReports(malformed)).reason).toBe('no_provider_number');
  });

  it('pages through reports delivered within the same millisecond without skipping or repeating one', async () => {
    const number = '3311450F';
    const [appointment] = await server.db.query<{ id: string }>(`select id::text as id from appointment where status <> 'HELD' limit 1`);
    // 23 reports a microsecond apart: the page boundary falls inside one millisecond.
    await server.db.query(
      `insert into result_report (accession_number, appointment_id, report_text, pdf_key, pdf_sha256, pdf_size, referrer_name,
                                  referrer_provider_number, release_at, received_at, delivery_sha256)
       select 'RL-TIE-' || n, $1::uuid, 'Findings: none.', 'rlPdfKey000000000000000', repeat('a', 64), 100, 'Dr Tie', $2,
              now(), timestamptz '2026-03-01T00:00:00.000Z' + n * interval '1 microsecond', repeat('b', 64)
         from generate_series(1, 23) as n`,
      [appointment?.id, number],
    );
    const tie = await signedIn({ ...REFERRER_CLAIMS, oid: '0a8e6f0c-0000-4000-8000-0000000000a5', provider_number: number });
    const first = await listReports(tie);
    const second = await listReports(tie, { before: first.nextCursor ?? '' });
    const seen = accessions([...first.reports, ...second.reports]);
    expect(new Set(seen).size).toBe(23);
    expect(seen[0]).toBe('RL-TIE-23');
    expect(second.nextCursor).toBeNull();
  });

  it("answers a search the same whether it starts from the few matching patients or reads the referrer's reports in order", async () => {
    const [mine] = await server.db.query<{ last_name: string }>(
      `select p.last_name from result_report r join appointment a on a.id = r.appointment_id
         join patient p on p.id = a.patient_id where r.accession_number = 'RL-MINE-07'`,
    );
    const fromPatients = createReferrerReportsRepository(server.db);
    const inOrder = createReferrerReportsRepository(server.db, { fewPatients: 0 });
    for (const search of [
      (mine?.last_name ?? '').slice(0, 2).toLowerCase(),
      'rl-mine-1',
      'rl-other',
      'zzq',
      'rl_mine',
      `rl-mine-1 ${(mine?.last_name ?? '').slice(0, 1).toLowerCase()}`,
    ]) {
      const filter = { ...BASE_FILTER, search, now: server.clock.now() };
      const expected = (await inOrder.page(filter)).map((row) => row.accessionNumber);
      expect(
        (await fromPatients.page(filter)).map((row) => row.accessionNumber),
        search,
      ).toEqual(expected);
    }
    expect((await inOrder.page({ ...BASE_FILTER, search: 'rl-mine-2', now: server.clock.now() })).length).toBe(6);
  });

  it('refuses staff, admins and kiosk administrators (403) and a request without a staff session (401)', async () => {
    for (const claims of [STAFF_CLAIMS, ADMIN_CLAIMS, KIOSK_ADMIN_CLAIMS]) {
      const browser = await signedIn({ ...claims, provider_number: MINE });
      expect((await browser.request('GET', '/api/referrer/reports')).statusCode).toBe(403);
    }
    expect((await client(server.app).request('GET', '/api/referrer/reports')).statusCode).toBe(401);
  });

  it('refuses a made-up cursor and an over-long search (400)', async () => {
    expect((await riley.request('GET', '/api/referrer/reports?before=2026-01-01')).statusCode).toBe(400);
    expect((await riley.request('GET', `/api/referrer/reports?search=${'a'.repeat(65)}`)).statusCode).toBe(400);
  });

  it('audits every list view with the referrer and the reports shown, never the search text', async () => {
    await server.db.query(`delete from audit_log where action = 'referrer.reports_listed'`);
    await listReports(riley, { search: 'rl-mine-2' });
    const rows = await server.db.query<{ actor: string; subject_type: string; details: Record<string, unknown> }>(
      `select actor, subject_type, details from audit_log where action = 'referrer.reports_listed'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.actor).toMatch(/^staff:[0-9a-f]{16}$/);
    expect(rows[0]?.subject_type).toBe('staff_session');
    expect(rows[0]?.details).toMatchObject({ searched: true, paged: false, count: 6 });
    expect(JSON.stringify(rows[0]?.details)).not.toContain('rl-mine');
  });
});
