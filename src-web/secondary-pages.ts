import type { ComponentType } from 'react';

/**
 * Pages off the booking path, behind one entry of the route table (pages.ts secondaryPage), as
 * staff-pages.ts does for staff: the provider's information pages, the embedding test page, the
 * pages a mail's link opens (unsubscribe, a reminder's answer, a waitlist offer, results shared
 * with a contact, a booking request), the deny and not-found pages and the callback request. The
 * booking home's entry chunk then names none of their files, only this small module's; they load
 * one round trip later.
 */
export const SECONDARY_PAGES = {
  about: () => import('./features/about/about-page').then((m) => m.AboutPage),
  contact: () => import('./features/contact/contact-page').then((m) => m.ContactPage),
  terms: () => import('./features/terms/terms-page').then((m) => m.TermsPage),
  privacy: () => import('./features/privacy/privacy-page').then((m) => m.PrivacyPage),
  'iframe-test': () => import('./features/iframe-test/iframe-test-page').then((m) => m.IframeTestPage),
  unsubscribe: () => import('./features/unsubscribe/unsubscribe-page').then((m) => m.UnsubscribePage),
  'appointment-reply': () => import('./features/appointment-reply/appointment-reply-page').then((m) => m.AppointmentReplyPage),
  'waitlist-offer': () => import('./features/waitlist-offer/waitlist-offer-page').then((m) => m.WaitlistOfferPage),
  deny: () => import('./features/deny/deny-page').then((m) => m.DenyPage),
  'not-found': () => import('./features/not-found/not-found-page').then((m) => m.NotFoundPage),
  callback: () => import('./features/callbacks/callback-page').then((m) => m.CallbackPage),
  'shared-results': () => import('./features/shared-results/shared-results-page').then((m) => m.SharedResultsPage),
  'booking-request': () => import('./features/booking-requests/booking-request-page').then((m) => m.BookingRequestPage),
} satisfies Record<string, () => Promise<ComponentType>>;

export type SecondaryPageId = keyof typeof SECONDARY_PAGES;
