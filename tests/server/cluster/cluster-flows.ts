import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { CaptchaChallengeSchema } from '@contract/api/captcha';
import type { TestSmtpServer, ReceivedMail } from '../helpers/test-smtp-server';
import { call, sendBooking, type Answer, type BookingAttempt } from './cluster-kit';

/** The longer steps of cluster.test.ts: mail, the proof-of-work, a booking that survives a dying server. */

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Mails the SMTP server received for this address. */
export function mailsTo(smtp: TestSmtpServer, email: string): ReceivedMail[] {
  return smtp.received.filter((mail) => mail.envelopeTo.includes(email));
}

/** Waits until `count` mails for this address have arrived. */
export async function waitForMailsTo(smtp: TestSmtpServer, email: string, count: number, timeoutMs = 30_000): Promise<ReceivedMail[]> {
  const started = Date.now();
  while (mailsTo(smtp, email).length < count) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`${mailsTo(smtp, email).length} of ${count} mails to ${email} after ${timeoutMs} ms`);
    await sleep(100);
  }
  return mailsTo(smtp, email);
}

/** A challenge from `base`, solved as the browser does; answers the X-Captcha value. */
export async function solvedCaptcha(base: string): Promise<string> {
  const answer = await call(base, 'GET', '/api/captcha/challenge');
  if (answer.status !== 200) throw new Error(`challenge: ${answer.status} ${answer.body}`);
  const challenge = CaptchaChallengeSchema.parse(answer.json());
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('the challenge could not be solved');
  const payload = { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** Signs in to a booking with the date of birth on `dobOn` and the mailed code asked for on `codeOn`, verified on `verifyOn`. */
export async function signIn(
  smtp: TestSmtpServer,
  bookingKey: string,
  patient: { email: string; dateOfBirth: string },
  servers: { dobOn: string; codeOn: string; verifyOn: string },
): Promise<Map<string, string>> {
  const cookies = new Map<string, string>();
  const keep = (answer: Answer): Answer => {
    for (const [name, value] of answer.cookies) cookies.set(name, value);
    return answer;
  };
  const dob = keep(
    await call(servers.dobOn, 'POST', '/api/patient-access/authenticate', {
      body: { bookingKey, type: 'APPOINTMENT', dateOfBirth: patient.dateOfBirth },
    }),
  );
  if (dob.status !== 200) throw new Error(`date of birth: ${dob.status} ${dob.body}`);
  const before = mailsTo(smtp, patient.email).length;
  const sent = keep(await call(servers.codeOn, 'POST', '/api/patient-access/otp', { body: { channel: 'EMAIL' }, cookies }));
  if (sent.status !== 202) throw new Error(`code: ${sent.status} ${sent.body}`);
  const mails = await waitForMailsTo(smtp, patient.email, before + 1);
  const code = /\b(\d{6})\b/.exec(mails[mails.length - 1]?.parsed.text ?? '')?.[1];
  if (code === undefined) throw new Error('no code in the mail');
  const verified = keep(await call(servers.verifyOn, 'POST', '/api/patient-access/otp/verify', { body: { code }, cookies }));
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${verified.body}`);
  return cookies;
}

export interface StreamedBooking {
  attempt: BookingAttempt;
  /** The final answer (201 when the booking was acknowledged). */
  final: Answer | null;
  /** 5xx answers and network errors on the way. */
  failures: string[];
}

/**
 * Sends a booking until it gets an answer that is not a 5xx or a network error (at most `tries`
 * times), each time with the same body and Idempotency-Key, as a client should after a 502.
 */
export async function bookWithRetries(base: string, attempt: BookingAttempt, tries = 10): Promise<StreamedBooking> {
  const result: StreamedBooking = { attempt, final: null, failures: [] };
  for (let index = 0; index < tries; index += 1) {
    try {
      const answer = await sendBooking(base, attempt);
      if (answer.status < 500) {
        result.final = answer;
        return result;
      }
      result.failures.push(`${answer.status} ${answer.body.slice(0, 120)}`);
    } catch (error) {
      result.failures.push(`network: ${error instanceof Error ? error.message : String(error)}`);
    }
    await sleep(300);
  }
  return result;
}

/** Runs `work` over `items` with at most `concurrency` at once, in order of start. */
export async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return results;
}
