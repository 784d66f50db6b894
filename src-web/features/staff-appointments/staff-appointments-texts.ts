import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The front desk's confirmation list's texts (staff-appointments.json), loaded with that page, so
 * none of them rides in the booking home's entry chunk or the other staff pages (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/staff-appointments.json'), {
  mk: () => import('../../i18n/locales/mk/staff-appointments.json'),
});

export const useStaffAppointmentsTexts = texts.useTexts;
