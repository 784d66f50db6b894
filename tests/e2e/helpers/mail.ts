import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';

/** Where scripts/e2e-server.mjs's SMTP server writes each mail the portal sent. */
const MAIL_DIR = process.env.E2E_MAIL_DIR ?? join(process.cwd(), 'test-results', 'e2e-mail');

function recipients(mail: ParsedMail): string[] {
  const to = mail.to === undefined ? [] : Array.isArray(mail.to) ? mail.to : [mail.to];
  return to.flatMap((address) => address.value.map((v) => (v.address ?? '').toLowerCase()));
}

/** Every mail received so far for this address, oldest first. */
export async function mailsTo(address: string): Promise<ParsedMail[]> {
  const files = readdirSync(MAIL_DIR)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  const parsed = await Promise.all(files.map((f) => simpleParser(readFileSync(join(MAIL_DIR, f)))));
  return parsed.filter((mail) => recipients(mail).includes(address.toLowerCase()));
}

/** Waits (polling) until a mail to this address has arrived over SMTP, and returns the newest. */
export async function waitForMailTo(address: string, timeoutMs = 15_000): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(address)).at(-1);
        return found !== undefined;
      },
      { timeout: timeoutMs, message: `no mail to ${address} arrived` },
    )
    .toBe(true);
  return found as ParsedMail;
}
