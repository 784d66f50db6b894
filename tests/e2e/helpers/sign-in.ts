import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { t } from './i18n';
import { mailsTo } from './mail';

type Surface = Page | FrameLocator;

/** Verification mails already read, per address (the journeys run one after another in one worker). */
const mailsRead = new Map<string, number>();

/**
 * Counts every mail to the address so far as read: the next codeFromMail waits for a code sent
 * after this call, not one an earlier journey asked for and never read.
 */
export async function forgetMailsTo(address: string): Promise<void> {
  mailsRead.set(address, (await mailsTo(address)).length);
}

/** The six-digit code in the newest verification mail to the address that no earlier call has read. */
export async function codeFromMail(address: string): Promise<string> {
  const before = mailsRead.get(address) ?? 0;
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const mails = await mailsTo(address);
        const fresh = mails.slice(before).map((mail) => /verification code is (\d{6})/.exec(mail.text ?? '')?.[1] ?? null);
        const found = fresh.filter((candidate): candidate is string => candidate !== null).at(-1);
        if (!found) return false;
        mailsRead.set(address, mails.length);
        code = found;
        return true;
      },
      { timeout: 20_000, message: `no new verification code mailed to ${address}` },
    )
    .toBe(true);
  return code as unknown as string;
}

/** Date of birth, then (when both channels are offered) e-mail as the channel; waits for the code field. */
export async function enterDateOfBirth(surface: Surface, dateOfBirth: string): Promise<void> {
  await surface.getByLabel(t('authentication.fields.dateOfBirth')).fill(dateOfBirth);
  await surface.getByRole('button', { name: t('authentication.submit') }).click();
  const channel = surface.getByRole('radio', { name: t('authentication.channel.email') });
  const code = surface.getByLabel(t('authentication.code.label'));
  await expect(channel.or(code)).toBeVisible();
  if (await channel.isVisible()) {
    await channel.check();
    await surface.getByRole('button', { name: t('authentication.channel.send') }).click();
  }
  await expect(code).toBeVisible();
}

/**
 * Signs in on the /authentication page a booking page sent us to: the date of birth, then the
 * e-mailed code when one is asked for (no e-mail: the date of birth alone, as for a booking
 * request). `signedIn` is what shows when no code turns out to be needed.
 */
export async function signIn(surface: Surface, who: { dateOfBirth: string; email?: string }, signedIn?: Locator): Promise<void> {
  await surface.getByLabel(t('authentication.fields.dateOfBirth')).fill(who.dateOfBirth);
  await surface.getByRole('button', { name: t('authentication.submit') }).click();
  if (!who.email) return;
  const channel = surface.getByRole('radio', { name: t('authentication.channel.email') });
  const code = surface.getByLabel(t('authentication.code.label'));
  const next = signedIn ? channel.or(code).or(signedIn) : channel.or(code);
  await expect(next.first()).toBeVisible();
  if (signedIn && (await signedIn.isVisible())) return;
  if (await channel.isVisible()) {
    await channel.check();
    await surface.getByRole('button', { name: t('authentication.channel.send') }).click();
  }
  await expect(code).toBeVisible();
  await code.fill(await codeFromMail(who.email));
  await surface.getByRole('button', { name: t('authentication.code.verify') }).click();
}
