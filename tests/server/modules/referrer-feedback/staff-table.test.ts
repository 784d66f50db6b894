import { beforeAll, describe, expect, it } from 'vitest';
import { FeedbackExportQuerySchema, FeedbackListResponseSchema, type FeedbackListResponse } from '@contract/api/referrer-feedback';
import { ApiErrorBodySchema } from '@contract/errors';
import { createReferrerFeedback } from '../../../../src-server/modules/referrer-feedback/public';
import { backends } from '../../helpers/database';
import { AMELIA, GRACE, LIAM } from '../patient-access/sign-in-kit';
import { deliverWithReferrerLink, INTEGRATION_ENV } from '../results/results-kit';
import { REFERRER_CLAIMS, STAFF_CLAIMS, staffBrowser, useStaffTestApp, type StaffBrowser } from '../staff-access/identity-kit';
import { answerFeedback, SIGNING_KEY } from './feedback-kit';

// The staff feedback table and its CSV (docs/rules/referrers.md#report-quality-feedback): the
// server filters by referrer, modality and a date range read in a time zone, sorts by date,
// referrer or a score, pages, refuses bad input with a 400 naming it, and exports the same filter
// as CSV (UTF-8 with BOM, the questions' titles, formula-safe cells), to staff and admins only.

const RILEY = { name: 'Dr Riley Referrer', providerNumber: '2426711A', email: 'riley.table@harbour-medical.example' };
const NGUYEN = { name: 'Dr Amelia Nguyen', providerNumber: '4932751K', email: 'amelia.table@harbour-medical.example' };
const BOJAN = { name: 'Д-р Бојан Петровски', providerNumber: null, email: 'bojan.table@harbour-medical.example' };
const LIST = '/api/staff/referrer-feedback';
const CSV = '/api/staff/referrer-feedback.csv';

// Given at these instants (UTC): 23:30 on 11 March is already 12 March in Sydney (UTC+11).
const GIVEN = [
  {
    at: '2026-03-10T09:00:00Z',
    booking: LIAM,
    accession: 'ACC-TBL-1',
    referrer: RILEY,
    answer: { clarity: 5, clinicalQuestion: 4, turnaround: 2 },
  },
  {
    at: '2026-03-11T23:30:00Z',
    booking: AMELIA,
    accession: 'ACC-TBL-2',
    referrer: NGUYEN,
    answer: { clarity: 2, clinicalQuestion: 5, turnaround: 3, comment: '=HYPERLINK("http://evil.example","click"), "quoted"\nsecond line' },
  },
  {
    at: '2026-03-13T02:00:00Z',
    booking: GRACE,
    accession: 'ACC-TBL-3',
    referrer: BOJAN,
    answer: { clarity: 4, clinicalQuestion: 3, turnaround: 5, comment: '+1 Одлично' },
  },
  {
    at: '2026-03-14T05:00:00Z',
    booking: LIAM,
    accession: 'ACC-TBL-4',
    referrer: RILEY,
    answer: { clarity: 3, clinicalQuestion: 1, turnaround: 4, comment: '@SUM(A1)' },
  },
] as const;

describe.each(backends())('the staff feedback table and CSV on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, env: { ...INTEGRATION_ENV, SIGNED_LINK_KEYS: SIGNING_KEY } });
  let staff: StaffBrowser;
  let referrer: StaffBrowser;
  /** Accession number -> modality code of its exam. */
  const modalityOf = new Map<string, string>();

  const list = async (query: string): Promise<FeedbackListResponse> => {
    const response = await staff.request('GET', `${LIST}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return FeedbackListResponseSchema.parse(response.json());
  };
  const accessions = (answer: FeedbackListResponse) => answer.items.map((item) => item.accessionNumber);
  const feedbackCount = async () =>
    (await server.db.query<{ count: number }>(`select count(*)::int as count from referrer_feedback`))[0]?.count;

  beforeAll(async () => {
    for (const item of GIVEN) {
      server.clock.set(item.at);
      const releaseAt = new Date(server.clock.now().getTime() + 86_400_000).toISOString();
      const { imsec } = await deliverWithReferrerLink(server.app, server.db, item.booking.bookingKey, {
        accessionNumber: item.accession,
        referrer: item.referrer,
        releaseAt,
      });
      await answerFeedback(server.app, imsec, item.answer);
    }
    const rows = await server.db.query<{ accession_number: string; code: string }>(
      `select r.accession_number, m.code from result_report r join appointment a on a.id = r.appointment_id
         join exam e on e.id = a.exam_id join modality m on m.id = e.modality_id where r.accession_number like 'ACC-TBL-%'`,
    );
    for (const row of rows) modalityOf.set(row.accession_number, row.code);
    staff = await signedIn(STAFF_CLAIMS, '198.51.100.41');
    referrer = await signedIn(REFERRER_CLAIMS, '198.51.100.42');
  });

  it('offers every referrer and modality with feedback as the filter choices, and patient, exam and modality on each row', async () => {
    const answer = await list('');
    expect(answer.total).toBe(4);
    expect(answer.referrers).toEqual(
      expect.arrayContaining([
        { key: RILEY.providerNumber, label: RILEY.name },
        { key: NGUYEN.providerNumber, label: NGUYEN.name },
        // No provider number: the name is the key.
        { key: BOJAN.name, label: BOJAN.name },
      ]),
    );
    expect(answer.referrers).toHaveLength(3);
    expect(answer.modalities.map((option) => option.key).sort()).toEqual([...new Set(modalityOf.values())].sort());
    const first = answer.items.find((item) => item.accessionNumber === 'ACC-TBL-1');
    expect(first?.patientName).toMatch(/Liam/);
    expect(first?.examName).toBeTruthy();
    expect(first?.modalityName).toBeTruthy();
  });

  it('filters by referrer and by modality, with the summaries over what the filter keeps', async () => {
    const riley = await list(`referrer=${RILEY.providerNumber}`);
    expect(accessions(riley)).toEqual(['ACC-TBL-4', 'ACC-TBL-1']);
    expect(riley.total).toBe(2);
    expect(riley.byReferrer.map((row) => row.key)).toEqual([RILEY.providerNumber]);
    // The choices stay whole whatever the filter.
    expect(riley.referrers).toHaveLength(3);
    expect(accessions(await list(`referrer=${encodeURIComponent(BOJAN.name)}`))).toEqual(['ACC-TBL-3']);

    const modality = modalityOf.get('ACC-TBL-2') ?? '';
    const expected = GIVEN.filter((item) => modalityOf.get(item.accession) === modality)
      .map((item) => item.accession)
      .reverse();
    const byModality = await list(`modality=${modality}`);
    expect(accessions(byModality)).toEqual(expected);
    expect(byModality.byModality.map((row) => row.key)).toEqual([modality]);
    expect(accessions(await list(`modality=${modality}&referrer=${NGUYEN.providerNumber}`))).toEqual(['ACC-TBL-2']);
    expect((await list('referrer=nobody')).total).toBe(0);
  });

  it('takes the date range as whole days, both included, in the time zone given', async () => {
    expect(accessions(await list('from=2026-03-11&to=2026-03-13'))).toEqual(['ACC-TBL-3', 'ACC-TBL-2']);
    expect(accessions(await list('from=2026-03-14'))).toEqual(['ACC-TBL-4']);
    expect(accessions(await list('to=2026-03-10'))).toEqual(['ACC-TBL-1']);
    // 23:30 UTC on the 11th is the 12th in Sydney.
    expect(accessions(await list('from=2026-03-12&to=2026-03-12&timeZone=Australia/Sydney'))).toEqual(['ACC-TBL-2']);
    expect(accessions(await list('from=2026-03-12&to=2026-03-12'))).toEqual([]);
  });

  it('sorts by date, referrer or a score either way, a page at a time', async () => {
    expect(accessions(await list('order=asc'))).toEqual(['ACC-TBL-1', 'ACC-TBL-2', 'ACC-TBL-3', 'ACC-TBL-4']);
    // By name; ties newest first.
    expect(accessions(await list('sort=referrer&order=asc'))).toEqual(['ACC-TBL-2', 'ACC-TBL-4', 'ACC-TBL-1', 'ACC-TBL-3']);
    expect(accessions(await list('sort=score:clarity&order=desc'))).toEqual(['ACC-TBL-1', 'ACC-TBL-3', 'ACC-TBL-4', 'ACC-TBL-2']);
    expect(accessions(await list('sort=score:clarity&order=asc'))).toEqual(['ACC-TBL-2', 'ACC-TBL-4', 'ACC-TBL-3', 'ACC-TBL-1']);
    expect(accessions(await list('sort=score:clinicalQuestion&order=asc'))).toEqual(['ACC-TBL-4', 'ACC-TBL-3', 'ACC-TBL-1', 'ACC-TBL-2']);
    const second = await list('sort=score:clarity&order=asc&pageSize=2&page=2');
    expect(accessions(second)).toEqual(['ACC-TBL-3', 'ACC-TBL-1']);
    expect(second.total).toBe(4);
  });

  it('refuses bad input with a 400 that names it, and changes nothing', async () => {
    const before = await feedbackCount();
    const cases: [string, RegExp][] = [
      ['from=2026-02-30', /YYYY-MM-DD/],
      ['from=yesterday', /YYYY-MM-DD/],
      ['from=2026-03-14&to=2026-03-10', /ends before it starts/],
      ['timeZone=Mars/Olympus', /time zone/],
      ['sort=patient', /Sort by date, referrer or score/],
      ['sort=score:comment', /no rating question "comment"/],
      ['order=sideways', /order|asc|desc/i],
      ['pageSize=500', /pageSize|100/],
      ['referrer=', /referrer|character/i],
      ['unknown=1', /unknown|unrecognized/i],
    ];
    for (const [query, message] of cases) {
      for (const path of [LIST, CSV]) {
        if (path === CSV && query.startsWith('pageSize')) continue;
        const response = await staff.request('GET', `${path}?${query}`);
        expect(response.statusCode, `${path}?${query}: ${response.body}`).toBe(400);
        const body = ApiErrorBodySchema.parse(response.json());
        expect(`${body.message} ${JSON.stringify(body.details)}`, query).toMatch(message);
      }
    }
    expect(await feedbackCount()).toBe(before);
  });

  it('exports the filter as CSV: an attachment, UTF-8 with BOM, titled columns, escaped and formula-safe cells', async () => {
    const response = await staff.request('GET', `${CSV}?from=2026-03-11&to=2026-03-13&sort=date&order=asc&timeZone=Australia/Sydney`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="referrer-feedback_2026-03-11_to_2026-03-13.csv"');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-feedback-rows']).toBe('2');
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Date (Australia/Sydney),Referrer,Provider number,Patient,Exam,Modality,Accession number,Given via,' +
        'How clear was the report?,Did the report answer your clinical question?,How satisfied are you with the turnaround time?,Anything else you would like us to know?',
    );
    // Nguyen's: 12 March 10:30 in Sydney; the comment quoted (comma, quotes, line break) and its = made text.
    expect(text).toContain(`2026-03-12 10:30,Dr Amelia Nguyen,4932751K,`);
    expect(text).toContain(`,ACC-TBL-2,link,2,5,3,"'=HYPERLINK(""http://evil.example"",""click""), ""quoted""\nsecond line"\r\n`);
    // Cyrillic kept (no provider number: an empty cell); + made text.
    expect(text).toContain(`Д-р Бојан Петровски,,`);
    expect(text).toContain(`,ACC-TBL-3,link,4,3,5,'+1 Одлично\r\n`);
    // The filter kept two rows (and the header); the file ends with a line break.
    expect(text.endsWith('\r\n')).toBe(true);
    expect(
      text
        .trimEnd()
        .split('\r\n')
        .filter((line) => /^\d{4}-\d\d-\d\d /.test(line)),
    ).toHaveLength(2);
  });

  it('exports with the filter by referrer and makes every formula cell text', async () => {
    const response = await staff.request('GET', `${CSV}?referrer=${RILEY.providerNumber}`);
    expect(response.statusCode, response.body).toBe(200);
    const text = response.rawPayload.subarray(3).toString('utf8');
    expect(text).toContain(`,ACC-TBL-4,link,3,1,4,'@SUM(A1)\r\n`);
    // No comment: an empty last cell.
    expect(text).toContain(`,ACC-TBL-1,link,5,4,2,\r\n`);
    expect(text).not.toContain('ACC-TBL-2');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="referrer-feedback_\d{4}-\d\d-\d\d\.csv"$/);
  });

  it('refuses an export over the row limit with a 400 asking for a narrower filter, and exports within it', async () => {
    // The service as the app builds it, on the same database, with a limit of 2 rows.
    const small = createReferrerFeedback({
      db: server.db,
      clock: server.clock,
      signedLinks: async () => {
        throw new Error('not used by the export');
      },
      enabled: async () => true,
      maxExportRows: 2,
    });
    const all = FeedbackExportQuerySchema.parse({});
    await expect(small.exportCsv(all)).rejects.toMatchObject({
      statusCode: 400,
      message: '4 feedbacks match; one export holds at most 2. Choose a shorter date range, a referrer or a modality.',
    });
    expect((await small.exportCsv(FeedbackExportQuerySchema.parse({ referrer: RILEY.providerNumber }))).rows).toBe(2);
  });

  it('gives the CSV to staff only: a referrer gets 403, a browser without a staff session 401', async () => {
    expect((await referrer.request('GET', CSV)).statusCode).toBe(403);
    expect((await staffBrowser(server.app, '198.51.100.43').request('GET', CSV)).statusCode).toBe(401);
  });
});
