import { createHash } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { SignInType } from '@contract/api/patient-access';
import type { Database } from '../../../../src-server/db/connection';
import { MINIMAL_PDF } from '../attachments/attachments-kit';
import { client, mailedCode, sendCode, verifyCode, type Client, type Person } from '../patient-access/sign-in-kit';

/** Shared steps of the results tests: delivering reports as the RIS does, and the results sign-in. */

export const INTEGRATION_TOKEN = 'results-integration-token-0123456789abcdef';
export const INTEGRATION_ENV = { INTEGRATION_API_TOKEN_SHA256: createHash('sha256').update(INTEGRATION_TOKEN).digest('hex') };
export const STUDY_UID = '1.2.826.0.1.3680043.8.498.12345';

/** The first appointment of a booking (its id is the slug the RIS knows). */
export async function appointmentIdOf(db: Database, bookingKey: string): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `select id::text as id from appointment where booking_key = $1 order by created_at limit 1`,
    [bookingKey],
  );
  if (row === undefined) throw new Error(`no appointment for ${bookingKey}`);
  return row.id;
}

/** Delivers a report as the RIS would (POST /api/integration/results); answers its result id. */
export async function deliverReport(
  app: FastifyInstance,
  db: Database,
  bookingKey: string,
  options: {
    accessionNumber: string;
    releaseAt: string;
    study?: string | null;
    reportText?: string;
    referrer?: { name: string; providerNumber: string | null; email?: string | null };
  },
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/integration/results',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${INTEGRATION_TOKEN}` },
    payload: JSON.stringify({
      accessionNumber: options.accessionNumber,
      appointmentSlug: await appointmentIdOf(db, bookingKey),
      reportText: options.reportText ?? 'MRI LEFT KNEE.\n\nFindings: small joint effusion.\n\nImpression: no internal derangement.',
      reportPdfBase64: MINIMAL_PDF.toString('base64'),
      referrer: options.referrer ?? { name: 'Dr Amelia Nguyen', providerNumber: '4932751K' },
      releaseAt: options.releaseAt,
      study: options.study === null ? null : { studyInstanceUid: options.study ?? STUDY_UID },
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ resultId: string }>().resultId;
}

/** A browser signed in with a results type: date of birth, then the code from the outbox mail. */
export async function resultsSignIn(
  app: FastifyInstance,
  db: Database,
  person: Pick<Person, 'bookingKey' | 'dateOfBirth' | 'email'>,
  type: SignInType = 'APPOINTMENT_RESULTS',
): Promise<Client> {
  const browser = client(app);
  const first = await browser.request('POST', '/api/patient-access/authenticate', {
    bookingKey: person.bookingKey,
    type,
    dateOfBirth: person.dateOfBirth,
  });
  expect(first.statusCode, first.body).toBe(200);
  expect(first.json<{ otpRequired: boolean }>().otpRequired).toBe(true);
  expect((await sendCode(browser)).statusCode).toBe(202);
  const verified = await verifyCode(browser, await mailedCode(db, person.email));
  expect(verified.statusCode, verified.body).toBe(200);
  return browser;
}

export const getResult = (browser: Client, bookingKey: string): Promise<LightMyRequestResponse> =>
  browser.request('GET', `/api/results/${bookingKey}`);

/**
 * Delivers a report naming the referrer's e-mail and answers its id and the imsec of the quick
 * report link in the report-ready mail about it, as the referrer's mail client would have it.
 */
export async function deliverWithReferrerLink(
  app: FastifyInstance,
  db: Database,
  bookingKey: string,
  options: Parameters<typeof deliverReport>[3] & { referrer: { name: string; providerNumber: string | null; email: string } },
): Promise<{ reportId: string; imsec: string }> {
  const reportId = await deliverReport(app, db, bookingKey, options);
  const [mail] = await db.query<{ text_body: string }>(
    `select text_body from outbox_mail where recipient = $1 and kind = 'referrer_report_ready' and text_body like $2 order by id desc limit 1`,
    [options.referrer.email, `%${options.accessionNumber}%`],
  );
  const link = /(https?:\/\/\S+\/referrer\/quick-report\?\S+)/.exec(mail?.text_body ?? '')?.[1];
  if (link === undefined) throw new Error(`no quick report link was mailed to the referrer for ${options.accessionNumber}`);
  const imsec = new URL(link).searchParams.get('imsec');
  if (imsec === null) throw new Error('the quick report link has no imsec');
  return { reportId, imsec };
}
