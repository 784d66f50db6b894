import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDemoResults, loadDemoResults } from '../../../src-server/dev-pacs/demo-results';
import { DEMO_PROVIDER_DIR } from '../../../src-server/db/seed/demo-provider';
import { checkPdf } from '../../../src-server/modules/attachments/public';
import { createResultDelivery } from '../../../src-server/modules/results/public';
import { createTestClock } from '../../../src-server/platform/clock';
import { createFolderStorage } from '../../../src-server/platform/storage';
import { backends, SEED_NOW } from '../helpers/database';
import { useTestApp, useTestDatabase } from '../helpers/test-app';
import { pdfText } from './pdf-text';

// The demo provider's results (resources/demo-provider/results.json) delivered through the real
// results delivery into a seeded database and a folder storage: once per accession number,
// however often the server starts.

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(backends())('seedDemoResults on %s', (backend) => {
  const test = useTestDatabase({ backend, state: 'seeded' });
  const storageDir = mkdtempSync(join(tmpdir(), 'demo-pacs-storage-'));
  const storage = createFolderStorage(storageDir);
  const clock = createTestClock(SEED_NOW);
  afterAll(() => rmSync(storageDir, { recursive: true, force: true }));

  const reports = () =>
    test.db.query<{
      accession_number: string;
      booking_key: string;
      pdf_key: string;
      study_instance_uid: string | null;
      release_at: string;
      referrer_provider_number: string | null;
    }>(
      `select r.accession_number, a.booking_key, r.pdf_key, r.study_instance_uid, r.referrer_provider_number,
              to_char(r.release_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as release_at
         from result_report r join appointment a on a.id = r.appointment_id order by r.accession_number`,
    );

  it('delivers every demo result on the first run, and nothing on the next ones: one report per accession number', async () => {
    const demo = await loadDemoResults();
    const delivery = createResultDelivery({ db: test.db, clock, storage });
    const first = await seedDemoResults({ db: test.db, clock, delivery });
    expect(first.delivered.sort()).toEqual(demo.map((result) => result.accessionNumber).sort());
    expect(first.skipped).toEqual([]);

    // A restart an hour later, then two servers starting together.
    clock.advance(60 * 60 * 1000);
    const again = await seedDemoResults({ db: test.db, clock, delivery });
    expect(again).toEqual({ delivered: [], stored: expect.arrayContaining(first.delivered), skipped: [] });
    const together = await Promise.all([
      seedDemoResults({ db: test.db, clock, delivery }),
      seedDemoResults({ db: test.db, clock, delivery }),
    ]);
    for (const outcome of together) expect(outcome.delivered).toEqual([]);

    const rows = await reports();
    expect(rows.map((row) => row.accession_number)).toEqual(demo.map((result) => result.accessionNumber).sort());
    for (const result of demo) {
      const row = rows.find((candidate) => candidate.accession_number === result.accessionNumber);
      expect(row, result.accessionNumber).toMatchObject({
        booking_key: result.bookingKey,
        study_instance_uid: result.studyInstanceUid,
        referrer_provider_number: result.referrer.providerNumber,
        // Released relative to the first run (the seed's clock), not the later ones.
        release_at: new Date(Date.parse(SEED_NOW) + result.releaseInDays * DAY_MS).toISOString(),
      });
    }
  });

  it('stores each report as a passive PDF naming the patient, the exam and the accession number', async () => {
    for (const row of await reports()) {
      const opened = await storage.open(row.pdf_key);
      if (opened === null) throw new Error(`${row.accession_number}: no PDF in the storage`);
      const chunks: Buffer[] = [];
      for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
      const pdf = Buffer.concat(chunks);
      const path = join(storageDir, 'check.pdf');
      writeFileSync(path, pdf);
      expect((await checkPdf(path)).active, row.accession_number).toBeNull();
      const text = pdfText(pdf);
      expect(text).toContain(row.accession_number);
      expect(text).toContain('Harbour & Range Radiology');
      expect(text).toMatch(/Liam Example|Amelia Sample/);
      expect(text).toContain('IMPRESSION');
    }
  });

  it('skips a result whose appointment the database does not have, and names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-pacs-results-'));
    try {
      const [first] = JSON.parse(readFileSync(join(DEMO_PROVIDER_DIR, 'results.json'), 'utf8')) as Record<string, unknown>[];
      writeFileSync(
        join(dir, 'results.json'),
        JSON.stringify([{ ...first, accessionNumber: 'HRR-DEMO-XX-1', bookingKey: 'NoSuchDemoBookingKey000' }]),
      );
      const outcome = await seedDemoResults({
        db: test.db,
        clock,
        delivery: createResultDelivery({ db: test.db, clock, storage }),
        directory: dir,
      });
      expect(outcome).toEqual({
        delivered: [],
        stored: [],
        skipped: [{ accessionNumber: 'HRR-DEMO-XX-1', bookingKey: 'NoSuchDemoBookingKey000' }],
      });
      expect((await reports()).map((row) => row.accession_number)).not.toContain('HRR-DEMO-XX-1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(backends())("seedDemoResults through the app's delivery on %s", (backend) => {
  const server = useTestApp({ backend });

  it('mails Dr Riley, the demo referrer, a quick report link for each of their reports, once however often it runs', async () => {
    const demo = await loadDemoResults();
    const riley = demo.filter((result) => result.referrer.email === 'dr.riley.referrer@harbour-medical.example');
    expect(riley.length).toBeGreaterThan(0);
    for (let run = 0; run < 2; run += 1) await seedDemoResults({ db: server.db, clock: server.clock, delivery: server.app.resultDelivery });

    const mails = await server.db.query<{ recipient: string; text_body: string }>(
      `select recipient, text_body from outbox_mail where kind = 'referrer_report_ready' order by id`,
    );
    // Only Riley has an e-mail in results.json; the other demo referrer is not mailed.
    expect(mails.map((mail) => mail.recipient)).toEqual(riley.map(() => 'dr.riley.referrer@harbour-medical.example'));
    for (const result of riley) {
      const mail = mails.find((candidate) => candidate.text_body.includes(`accession ${result.accessionNumber}`));
      expect(mail?.text_body, result.accessionNumber).toMatch(/\/referrer\/quick-report\?imsec=[\w.-]+&repositorySource=default/);
    }
  });
});

describe('loadDemoResults', () => {
  const withResults = async (content: unknown): Promise<unknown> => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-pacs-results-'));
    try {
      cpSync(join(DEMO_PROVIDER_DIR, 'results.json'), join(dir, 'results.json'));
      if (content !== undefined) writeFileSync(join(dir, 'results.json'), JSON.stringify(content));
      return await loadDemoResults(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const real = JSON.parse(readFileSync(join(DEMO_PROVIDER_DIR, 'results.json'), 'utf8')) as Record<string, unknown>[];

  it('reads no results from a folder without results.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-pacs-results-'));
    try {
      expect(await loadDemoResults(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['a duplicate accession number', [real[0], { ...real[1], accessionNumber: real[0]?.accessionNumber }], /duplicate accession number/],
    ['an accession number with a slash', [{ ...real[0], accessionNumber: '../ACC' }], /0\.accessionNumber/],
    ['a short booking key', [{ ...real[0], bookingKey: 'short' }], /0\.bookingKey/],
    ['a bad StudyInstanceUID', [{ ...real[0], studyInstanceUid: '1.2.abc' }], /0\.studyInstanceUid/],
    ['an unknown field', [{ ...real[0], patientName: 'Liam' }], /patientName/],
    ['a bad provider number', [{ ...real[0], referrer: { name: 'Dr A', providerNumber: '12' } }], /0\.referrer\.providerNumber/],
  ])('refuses %s, naming the file and the field', async (_case, content, message) => {
    await expect(withResults(content)).rejects.toThrow(message);
    await expect(withResults(content)).rejects.toThrow(/results\.json/);
  });
});

describe('resources/demo-provider/results.json', () => {
  const appointments = JSON.parse(readFileSync(join(DEMO_PROVIDER_DIR, 'appointments.json'), 'utf8')) as {
    bookingKey: string;
    status: string;
    dayOffset?: number;
    patient: { firstName: string; lastName: string; dateOfBirth: string };
  }[];

  it('gives each result a past, checked-in demo appointment of its own', async () => {
    const results = await loadDemoResults();
    expect(new Set(results.map((result) => result.bookingKey)).size).toBe(results.length);
    for (const result of results) {
      const appointment = appointments.find((candidate) => candidate.bookingKey === result.bookingKey);
      expect(appointment, result.accessionNumber).toBeDefined();
      expect(appointment?.status, result.accessionNumber).toBe('CHECKED_IN');
      // Far enough back that moving to the next open day (weekend, holiday) keeps it in the past.
      expect(appointment?.dayOffset, result.accessionNumber).toBeLessThanOrEqual(-4);
      expect(result.reportText).toMatch(/CLINICAL HISTORY:[\s\S]+TECHNIQUE:[\s\S]+FINDINGS:[\s\S]+IMPRESSION:/);
    }
  });

  it('has, for the demo patient Liam Example, a released result with a study, a released one without, and one not yet released; and a released one for another patient', async () => {
    const results = await loadDemoResults();
    const patientOf = (bookingKey: string) => appointments.find((candidate) => candidate.bookingKey === bookingKey)?.patient;
    const liam = results.filter((result) => patientOf(result.bookingKey)?.dateOfBirth === '1991-03-14');
    expect(liam.some((result) => result.releaseInDays < 0 && result.studyInstanceUid !== null)).toBe(true);
    expect(liam.some((result) => result.releaseInDays < 0 && result.studyInstanceUid === null)).toBe(true);
    expect(liam.some((result) => result.releaseInDays > 0)).toBe(true);
    expect(results.some((result) => patientOf(result.bookingKey)?.firstName !== 'Liam' && result.releaseInDays < 0)).toBe(true);
    // The demo patient is one person: the same name and date of birth as the README's demo booking.
    for (const result of liam) expect(patientOf(result.bookingKey)).toEqual(appointments[0]?.patient);
  });
});
