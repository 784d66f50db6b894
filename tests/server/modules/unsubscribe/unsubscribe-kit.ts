import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { createTestClock } from '../../../../src-server/platform/clock';
import type { Database } from '../../../../src-server/db/connection';
import { createSmtpMailer } from '../../../../src-server/platform/mailer';
import { createOutboxRepository } from '../../../../src-server/platform/outbox/outbox-repository';
import { createOutboxWorker } from '../../../../src-server/platform/outbox/outbox-worker';
import { createSignedLinks, parseSignedLinkKeys } from '../../../../src-server/platform/signed-links';
import { collectingLogger, smtpConfigFor, type ReceivedMail, type TestSmtpServer } from '../../helpers/test-smtp-server';

/** Shared by the unsubscribe tests: a known signing key (so a test can sign other purposes) and the real mail path. */

export const SIGNING_KEY = `k1:${Buffer.alloc(32, 9).toString('base64url')}`;

/** Links signed with the server's key, for tokens of other purposes. */
export function testSignedLinks(now: () => Date) {
  return createSignedLinks({ keys: parseSignedLinkKeys(SIGNING_KEY), clock: { now } });
}

/** Queues a plain mail of `kind` through the real outbox, with the layout's footer marker as real templates have it. */
export async function queueMail(db: Database, kind: string, recipient: string, html: string, text: string, now: Date): Promise<number> {
  return createOutboxRepository(db).enqueue({ kind, recipient, subject: `Test ${kind}`, text, html }, now);
}

/** Runs the server's mail worker (with its unsubscribe policy) once, over real SMTP. */
export async function sendQueued(app: FastifyInstance, db: Database, smtp: TestSmtpServer, now: Date): Promise<void> {
  const mailer = createSmtpMailer(smtpConfigFor(smtp.port));
  const worker = createOutboxWorker({
    db,
    mailer,
    policy: app.outgoingMailPolicy,
    clock: createTestClock(now.toISOString()),
    logger: collectingLogger(),
    pollMs: 1000,
    maxAttempts: 3,
  });
  await worker.runOnce();
  await mailer.close();
}

export function headerOf(mail: ReceivedMail, name: string): string {
  const value = mail.parsed.headers.get(name);
  // mailparser reads List-* headers into objects; the raw line is in headerLines.
  const line = mail.parsed.headerLines.find((header) => header.key === name)?.line;
  if (line !== undefined)
    return line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, '')
      .trim();
  return typeof value === 'string' ? value : '';
}

/** The one-click URL of a mail's List-Unsubscribe header, and its token. */
export function oneClickOf(mail: ReceivedMail): { url: URL; token: string } {
  const header = headerOf(mail, 'list-unsubscribe');
  const match = /^<(https?:\/\/[^>]+)>$/.exec(header);
  expect(match, header).not.toBeNull();
  const url = new URL(match?.[1] ?? '');
  return { url, token: url.searchParams.get('token') ?? '' };
}

/** A token with one character changed at `index` (to another base64url character). */
export function alteredAt(token: string, index: number): string {
  const character = token[index] ?? 'A';
  const replacement = character === 'A' ? 'B' : 'A';
  return `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`;
}

export async function recipientRows(db: Database) {
  return db.query<{ address: string; unsubscribed: boolean }>(
    `select address, (unsubscribed_at is not null) as unsubscribed from mail_recipient order by address`,
  );
}
