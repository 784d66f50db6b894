import { expect, type FrameLocator, type Page } from '@playwright/test';
import { t } from './i18n';
import { mailsTo } from './mail';

/** Steps of the results journeys (results.spec.ts, results-expired.spec.ts). */

type Surface = Page | FrameLocator;

/** The code of the first verification mail to the address after the `before`-th one. */
export async function codeAfter(address: string, before: number): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const fresh = (await mailsTo(address)).slice(before);
        code = fresh.map((mail) => /verification code is (\d{6})/.exec(mail.text ?? '')?.[1] ?? '').find(Boolean) ?? '';
        return code;
      },
      { timeout: 20_000, message: `no new verification code mailed to ${address}` },
    )
    .not.toBe('');
  return code;
}

/**
 * Signs in on the page the result sent us to: the date of birth (typed, unless `prefilled`), then
 * the code of the mail this sign-in sends (counted from before it, so a code an earlier test left
 * in the outbox is never taken). A result sign-in always asks for the code.
 */
export async function signInWithCode(surface: Surface, who: { dateOfBirth: string; email: string }, prefilled = false): Promise<void> {
  const dateOfBirth = surface.getByLabel(t('authentication.fields.dateOfBirth'));
  if (prefilled) await expect(dateOfBirth).toHaveValue(who.dateOfBirth);
  else await dateOfBirth.fill(who.dateOfBirth);
  const earlier = await mailsTo(who.email);
  const before = earlier.length;
  // The demo resends a booking's code at most every 5 s (otpResendSeconds): a journey right after
  // another one on the same booking waits that long first, as the page would ask a patient to.
  const lastSent = earlier.at(-1)?.date?.getTime() ?? 0;
  const wait = lastSent + 6_000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await surface.getByRole('button', { name: t('authentication.submit') }).click();
  const code = surface.getByLabel(t('authentication.code.label'));
  await expect(code).toBeVisible();
  await code.fill(await codeAfter(who.email, before));
  await surface.getByRole('button', { name: t('authentication.code.verify') }).click();
}
