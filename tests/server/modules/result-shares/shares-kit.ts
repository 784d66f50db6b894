import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ShareRecord } from '@contract/api/result-shares';
import type { Database } from '../../../../src-server/db/connection';
import { client, mailedCode, sendCode, verifyCode, type Client } from '../patient-access/sign-in-kit';

/** Shared steps of the sharing tests: a share made by the patient, and the contact's sign-in with its link. */

export const CONTACT_EMAIL = 'dr.gp@clinic.example';

export async function share(
  patient: Client,
  bookingKey: string,
  body: Record<string, unknown> = {},
): Promise<{ response: LightMyRequestResponse; record: ShareRecord }> {
  const response = await patient.request('POST', `/api/results/${bookingKey}/shares`, {
    contactDetails: CONTACT_EMAIL,
    contactDetailsType: 'EMAIL',
    contactName: 'Dr Gemma Practitioner',
    note: 'For our appointment on Friday.',
    type: 'RESULT',
    ...body,
  });
  return { response, record: response.json<ShareRecord>() };
}

/** The token in the newest share mail to `recipient` (the link's fragment). */
export async function mailedShareToken(db: Database, recipient: string): Promise<string> {
  const [row] = await db.query<{ text_body: string }>(
    `select text_body from outbox_mail where recipient = $1 and kind = 'result_share' order by id desc limit 1`,
    [recipient],
  );
  const token = /\/results\/shared#([A-Za-z0-9_-]{43})\b/.exec(row?.text_body ?? '')?.[1];
  if (token === undefined) throw new Error(`no share mail for ${recipient}`);
  return token;
}

export const openShare = (browser: Client, shareToken: string, dateOfBirth: string): Promise<LightMyRequestResponse> =>
  browser.request('POST', '/api/patient-access/shared', { shareToken, dateOfBirth });

/** A contact's browser, signed in with the share link and the code mailed to the contact. */
export async function contactSignIn(app: FastifyInstance, db: Database, shareToken: string, dateOfBirth: string): Promise<Client> {
  const browser = client(app);
  const opened = await openShare(browser, shareToken, dateOfBirth);
  expect(opened.statusCode, opened.body).toBe(200);
  expect(opened.json()).toMatchObject({ otpRequired: true, otpChannels: ['EMAIL'] });
  expect((await sendCode(browser)).statusCode).toBe(202);
  const verified = await verifyCode(browser, await mailedCode(db, CONTACT_EMAIL));
  expect(verified.statusCode, verified.body).toBe(200);
  // The patient's booking key never reaches the contact.
  expect(verified.json<{ bookingKey: string }>().bookingKey).toBe('');
  return browser;
}
