import { describe, expect, it } from 'vitest';
import { loadBookingStepsTexts } from '../../../src-web/features/booking/booking-steps-texts';
import { createI18n } from '../../../src-web/i18n/create-i18n';
import { loadSelfServiceTexts } from '../../../src-web/i18n/self-service-texts';
import { loadSignInTexts } from '../../../src-web/features/patient-access/sign-in-texts';

/** Counts take the plural form their language needs (i18next over Intl.PluralRules). */
describe('plural texts', () => {
  it('should say "1 consent form" and "2 consent forms" in English', async () => {
    const i18n = await createI18n('en', {});
    await loadSelfServiceTexts(i18n, 'en');
    expect(i18n.t('appointment.consent.notificationText', { count: 1 })).toBe(
      '1 consent form for this appointment still needs your signature.',
    );
    expect(i18n.t('appointment.consent.notificationText', { count: 2 })).toBe(
      '2 consent forms for this appointment still need your signature.',
    );
  });

  it('should follow the Macedonian rule: one for 1 and 21, other for 2 and 11', async () => {
    expect(new Intl.PluralRules('mk').resolvedOptions().pluralCategories).toEqual(expect.arrayContaining(['one', 'other']));
    const i18n = await createI18n('mk', {});
    await Promise.all([loadSelfServiceTexts(i18n, 'mk'), loadBookingStepsTexts(i18n, 'mk')]);
    const forms = (count: number) => i18n.t('appointment.consent.notificationText', { count });
    expect(forms(1)).toBe('1 формулар за согласност за овој термин сè уште чека ваш потпис.');
    expect(forms(21)).toBe('21 формулар за согласност за овој термин сè уште чека ваш потпис.');
    expect(forms(2)).toBe('2 формулари за согласност за овој термин сè уште чекаат ваш потпис.');
    expect(forms(11)).toBe('11 формулари за согласност за овој термин сè уште чекаат ваш потпис.');
    expect(i18n.t('booking.calendar.freeCount', { count: 1 })).toBe('1 слободен');
    expect(i18n.t('booking.calendar.freeCount', { count: 3 })).toBe('3 слободни');
  });

  it.each(['en', 'en-AU', 'en-NZ', 'en-CA', 'mk'] as const)('should count seconds, minutes and hours in %s', async (locale) => {
    const i18n = await createI18n(locale, {});
    await Promise.all([loadSelfServiceTexts(i18n, locale), loadSignInTexts(i18n, locale)]);
    const one = i18n.t('authentication.code.resendIn', { count: 1 });
    const many = i18n.t('authentication.code.resendIn', { count: 5 });
    expect(one).toContain('1 ');
    expect(many).toContain('5 ');
    expect(one.replace('1', '5')).not.toBe(many);
    expect(i18n.t('message.cancel_prior_minutes', { count: 1 })).not.toBe(
      i18n.t('message.cancel_prior_minutes', { count: 1.5 }).replace('1.5', '1'),
    );
  });
});
