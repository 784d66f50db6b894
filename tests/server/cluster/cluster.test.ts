import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterUnavailable, ensureClusterBuilt, startCluster, type Cluster } from '../../../scripts/cluster.mjs';
import { KEYS_PER_WINDOW } from '../../../src-server/modules/questionnaires/routes';
import { startLocalS3, type LocalS3 } from '../helpers/s3-server';
import { startTestSmtpServer, type TestSmtpServer } from '../helpers/test-smtp-server';
import { bookWithRetries, inParallel, mailsTo, signIn, solvedCaptcha, waitForMailsTo } from './cluster-flows';
import {
  call,
  createClusterDatabase,
  freeSlots,
  newClient,
  postgresAdminUrl,
  prepareBooking,
  sendBooking,
  sydneyDateIn,
  type ClusterDatabase,
} from './cluster-kit';

/**
 * Two built servers on one PostgreSQL behind Debian's nginx, with S3 storage (s3rver) and a real
 * SMTP server, started by scripts/cluster.mjs (docs/server.md#running-several-servers). Server A
 * and B are also called directly, to show that what one did the other sees.
 */

const admin = await postgresAdminUrl();
const skipped = clusterUnavailable() ?? ('reason' in admin ? admin.reason : null);
if (skipped !== null) console.warn(`[cluster test] skipped: ${skipped}`);

const EXAM = 'ct-brain';
const FROM = sydneyDateIn(3);

describe.skipIf(skipped !== null)(`two servers behind nginx${skipped === null ? '' : ` (skipped: ${skipped})`}`, () => {
  let cluster: Cluster;
  let database: ClusterDatabase;
  let smtp: TestSmtpServer;
  let s3: LocalS3;
  let nginx: string;
  let serverA: string;
  let serverB: string;
  /** Free starts not used yet, handed out by nextSlot. */
  let slots: Array<{ exam: string; clinicSlug: string; startsAt: string }> = [];
  const nextSlot = (): { exam: string; clinicSlug: string; startsAt: string } => {
    const slot = slots.shift();
    if (slot === undefined) throw new Error('no free start left');
    return slot;
  };

  beforeAll(async () => {
    if (!('url' in admin)) return;
    await ensureClusterBuilt();
    database = await createClusterDatabase(admin.url);
    smtp = await startTestSmtpServer();
    s3 = await startLocalS3();
    cluster = await startCluster({
      env: {
        DATABASE_URL: database.url,
        LOG_LEVEL: 'warn',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_FROM: 'Portal <bookings@portal.example>',
        OUTBOX_POLL_MS: '200',
        S3_BUCKET: s3.settings.bucket,
        S3_ENDPOINT: s3.settings.endpoint ?? undefined,
        S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    nginx = cluster.url;
    [serverA, serverB] = cluster.servers.map((server) => server.url) as [string, string];
    for (const clinicSlug of ['parramatta', 'chatswood', 'liverpool', 'bondi-junction']) {
      const free = await freeSlots(nginx, EXAM, clinicSlug, FROM, 7);
      slots.push(...free.map((slot) => ({ exam: EXAM, clinicSlug, startsAt: slot.startsAt })));
    }
    // Spread over the clinics and days, so the stream's bookings do not queue on one resource.
    slots = slots.sort((a, b) =>
      a.startsAt === b.startsAt ? a.clinicSlug.localeCompare(b.clinicSlug) : a.startsAt.localeCompare(b.startsAt),
    );
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    await s3?.stop();
    await smtp?.stop();
    await database?.drop();
  }, 60_000);

  it('answers through nginx from both servers', async () => {
    const ids = new Set<string>();
    for (let index = 0; index < 6; index += 1) {
      const answer = await call(nginx, 'GET', '/api/health/ready');
      expect(answer.status).toBe(200);
    }
    for (const base of [serverA, serverB]) ids.add((await call(base, 'GET', '/api/health/ready')).body);
    expect(slots.length).toBeGreaterThan(60);
  });

  it('(a) no stale availability: a time booked on A is not offered by B', async () => {
    const slot = nextSlot();
    const attempt = await prepareBooking(serverA, slot, 'stale');
    const offered = async (base: string): Promise<boolean> =>
      (await freeSlots(base, slot.exam, slot.clinicSlug, FROM, 7)).some((free) => free.startsAt === slot.startsAt);
    // B has its index loaded and offers the time.
    expect(await offered(serverB)).toBe(true);
    expect((await sendBooking(serverA, attempt)).status).toBe(201);
    expect(await offered(serverB)).toBe(false);
    expect(await offered(serverA)).toBe(false);
    expect(await offered(nginx)).toBe(false);
    // And B refuses the time to someone else.
    const rival = await prepareBooking(serverB, slot, 'rival');
    expect((await sendBooking(serverB, rival)).status).toBe(409);
  });

  it('(b) a patient session made on A works on B', async () => {
    const attempt = await prepareBooking(serverA, nextSlot(), 'session');
    const booked = await sendBooking(serverA, attempt);
    expect(booked.status, booked.body).toBe(201);
    const { bookingKey } = booked.json<{ bookingKey: string }>();
    // The confirmation first, so the code's mail is the next one.
    await waitForMailsTo(smtp, attempt.patient.email, 1);
    const cookies = await signIn(smtp, bookingKey, attempt.patient, { dobOn: serverA, codeOn: serverB, verifyOn: serverA });
    expect(cookies.has('__Host-portal_session')).toBe(true);
    for (const base of [serverB, serverA, nginx]) {
      const session = await call(base, 'GET', `/api/patient-access/session?bookingKey=${bookingKey}&type=APPOINTMENT`, { cookies });
      expect(session.status, `${base}: ${session.body}`).toBe(200);
      expect((await call(base, 'GET', `/api/appointments/${bookingKey}`, { cookies })).status).toBe(200);
    }
    // Signed out on B: A refuses the cookie too.
    expect((await call(serverB, 'POST', '/api/patient-access/logout', { cookies })).status).toBeLessThan(300);
    expect((await call(serverA, 'GET', `/api/appointments/${bookingKey}`, { cookies })).status).toBe(401);
  });

  it('(c) sign-in limits and the proof-of-work are shared: what A counted, B refuses', async () => {
    const attempt = await prepareBooking(nginx, nextSlot(), 'limits');
    const booked = await sendBooking(nginx, attempt);
    expect(booked.status).toBe(201);
    const { bookingKey } = booked.json<{ bookingKey: string }>();
    const tryDob = (base: string, dateOfBirth: string): ReturnType<typeof call> =>
      call(base, 'POST', '/api/patient-access/authenticate', {
        client: newClient(),
        body: { bookingKey, type: 'APPOINTMENT', dateOfBirth },
      });
    // Five wrong dates of birth, taking turns on A and B (three on A, two on B), lock the booking
    // on both: the fifth is answered 429 already.
    for (let index = 0; index < 5; index += 1) {
      const wrong = await tryDob(index % 2 === 0 ? serverA : serverB, `1990-01-0${index + 1}`);
      expect(wrong.status, `attempt ${index + 1}: ${wrong.body}`).toBe(index < 4 ? 401 : 429);
    }
    for (const base of [serverA, serverB]) {
      const locked = await tryDob(base, attempt.patient.dateOfBirth);
      expect(locked.status).toBe(429);
      expect(locked.json<{ code: string }>().code).toBe('max_attempts_reached');
    }

    // A proof-of-work answer to A's challenge is taken once, by B; A then refuses it.
    const answer = await solvedCaptcha(serverA);
    const callback = (base: string): ReturnType<typeof call> =>
      call(base, 'POST', '/api/callback-requests', {
        client: newClient(),
        headers: { 'x-captcha': answer },
        body: { firstName: 'Ada', lastName: 'Cluster', phone: '0412 345 678', windows: ['anyTime'], reason: 'Which day suits?' },
      });
    expect((await callback(serverB)).status).toBe(201);
    const replayed = await callback(serverA);
    expect(replayed.status).toBe(403);
    expect(replayed.json<{ code: string }>().code).toBe('captcha_required');
  });

  it('(c) the per-address windows are shared too: questionnaire keys taken on A and B count together', async () => {
    const client = newClient();
    const ask = (base: string): ReturnType<typeof call> => call(base, 'POST', '/api/questionnaires/booking-keys', { client });
    for (let index = 0; index < KEYS_PER_WINDOW; index += 1) {
      const issued = await ask(index % 2 === 0 ? serverA : serverB);
      expect(issued.status, `key ${index + 1}: ${issued.body}`).toBe(201);
    }
    for (const base of [serverA, serverB]) {
      const refused = await ask(base);
      expect(refused.status).toBe(429);
      expect(refused.json<{ code: string }>().code).toBe('too_many_requests');
    }
  });

  it('(d) every job runs once: each confirmation is mailed once while both outbox workers poll', async () => {
    const attempts = await Promise.all(Array.from({ length: 6 }, () => prepareBooking(nginx, nextSlot(), 'mailed')));
    for (const attempt of attempts) expect((await sendBooking(nginx, attempt)).status).toBe(201);
    for (const attempt of attempts) await waitForMailsTo(smtp, attempt.patient.email, 1);
    // Both workers poll every 200 ms: a few more rounds, and still one mail each.
    await new Promise((done) => setTimeout(done, 3000));
    for (const attempt of attempts) expect(mailsTo(smtp, attempt.patient.email)).toHaveLength(1);
    const outbox = await database.query<{ pending: number }>(
      `select count(*)::int as pending from outbox_mail where status in ('queued', 'sending')`,
    );
    expect(outbox[0]?.pending).toBe(0);
  }, 120_000);

  it('(e) killing server A under load loses no acknowledged booking, and nginx passes retryable requests on', async () => {
    const attempts = await inParallel(Array.from({ length: 30 }), 3, () => prepareBooking(nginx, nextSlot(), 'stream'));
    const readFailures: string[] = [];
    let reading = true;
    // Reads beside the bookings: nginx passes a GET on to B when A refuses it, so none fails.
    const reader = (async () => {
      while (reading) {
        const answer = await call(nginx, 'GET', `/api/booking/availability?exams=${EXAM}&clinics=parramatta&from=${FROM}&days=7`).catch(
          (error: unknown) => ({ status: 0, body: String(error) }),
        );
        if (answer.status !== 200) readFailures.push(`${answer.status} ${answer.body.slice(0, 120)}`);
      }
    })();
    let acknowledged = 0;
    let afterKill = 0;
    let killed: Promise<void> | null = null;
    const results = await inParallel(attempts, 3, async (attempt) => {
      const result = await bookWithRetries(nginx, attempt);
      if (result.final?.status === 201 && killed !== null) afterKill += 1;
      if (result.final?.status === 201) acknowledged += 1;
      if (acknowledged >= 5 && killed === null) killed = cluster.servers[0]?.kill('SIGKILL') ?? null;
      return result;
    });
    reading = false;
    await reader;
    await killed;
    expect(cluster.servers[0]?.child.signalCode).toBe('SIGKILL');
    expect(afterKill).toBeGreaterThan(20);

    // Each booking was answered 201 in the end (a 502 for a POST in flight on A, then the same
    // Idempotency-Key again), and each acknowledged one is in the database, once.
    const finals = results.map((result) => `${result.final?.status ?? 'none'} ${result.failures.join(' | ')}`);
    expect(
      results.every((result) => result.final?.status === 201),
      finals.join('\n'),
    ).toBe(true);
    const keys = results.map((result) => result.final?.json<{ bookingKey: string }>().bookingKey);
    const rows = await database.query<{ booking_key: string; email: string }>(
      `select a.booking_key, p.email from appointment a join patient p on p.id = a.patient_id where a.booking_key = any($1::text[])`,
      [keys],
    );
    expect(new Set(rows.map((row) => row.booking_key))).toEqual(new Set(keys));
    const emails = attempts.map((attempt) => attempt.patient.email);
    const perPatient = await database.query<{ email: string; count: number }>(
      `select p.email, count(*)::int as count from appointment a join patient p on p.id = a.patient_id where p.email = any($1::text[]) group by p.email`,
      [emails],
    );
    expect(perPatient.filter((row) => row.count !== 1)).toEqual([]);
    expect(perPatient).toHaveLength(emails.length);
    // Only POSTs may see a 5xx (nginx does not pass on a request a server may have written).
    expect(readFailures).toEqual([]);
    for (const result of results) for (const failure of result.failures) expect(failure).toMatch(/^(502|network)/);
    // B goes on answering through nginx.
    expect((await call(nginx, 'GET', '/api/health/ready')).status).toBe(200);
  }, 240_000);
});
