import type { ComponentType } from 'react';

/**
 * The pages of staff, referring doctors and the demo viewer, behind one entry of the route table
 * (routes.tsx staffPage): the booking home's entry chunk then names none of their files, only
 * this small module's. They load one round trip later, which only their users pay.
 */
export const STAFF_PAGES = {
  'image-viewer-access': () => import('./features/staff-access/image-viewer-access-page').then((m) => m.ImageViewerAccessPage),
  'referrer-access': () => import('./features/referrer-reports/referrer-access-page').then((m) => m.ReferrerAccessPage),
  'referrer-quick-report': () => import('./features/quick-report/quick-report-page').then((m) => m.QuickReportPage),
  'referrer-report-feedback': () => import('./features/referrer-feedback/report-feedback-page').then((m) => m.ReportFeedbackPage),
  'referrer-report-feedback-faq': () =>
    import('./features/referrer-feedback/report-feedback-faq-page').then((m) => m.ReportFeedbackFaqPage),
  'preview-email': () => import('./features/preview-email/preview-email-page').then((m) => m.PreviewEmailPage),
  'staff-home': () => import('./features/staff-home/staff-home-page').then((m) => m.StaffHomePage),
  'staff-kiosks': () => import('./features/staff-kiosks/staff-kiosks-page').then((m) => m.StaffKiosksPage),
  'staff-consents': () => import('./features/staff-consents/staff-consents-page').then((m) => m.StaffConsentsPage),
  'staff-referrer-feedback': () => import('./features/referrer-feedback/staff-feedback-page').then((m) => m.StaffFeedbackPage),
  'staff-callbacks': () => import('./features/staff-callbacks/staff-callbacks-page').then((m) => m.StaffCallbacksPage),
  'staff-booking-requests': () =>
    import('./features/staff-booking-requests/staff-booking-requests-page').then((m) => m.StaffBookingRequestsPage),
  'staff-screening-reviews': () =>
    import('./features/staff-screening-reviews/staff-screening-reviews-page').then((m) => m.StaffScreeningReviewsPage),
  'staff-appointments': () => import('./features/staff-appointments/staff-appointments-page').then((m) => m.StaffAppointmentsPage),
  'demo-viewer': () => import('./features/demo-viewer/demo-viewer-page').then((m) => m.DemoViewerPage),
} satisfies Record<string, () => Promise<ComponentType>>;

export type StaffPageId = keyof typeof STAFF_PAGES;
