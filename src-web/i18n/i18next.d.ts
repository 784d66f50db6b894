import type en from './locales/en/translation.json';
import type questionnaires from './locales/en/questionnaires.json';
import type pages from './locales/en/pages.json';
import type selfService from './locales/en/self-service.json';
import type signIn from './locales/en/sign-in.json';
import type staff from './locales/en/staff.json';
import type attachments from './locales/en/attachments.json';
import type staffKiosks from './locales/en/staff-kiosks.json';
import type kiosk from './locales/en/kiosk.json';
import type results from './locales/en/results.json';
import type demoViewer from './locales/en/demo-viewer.json';
import type resultSharing from './locales/en/result-sharing.json';
import type quickReport from './locales/en/quick-report.json';
import type reportFeedback from './locales/en/report-feedback.json';
import type referrerAccess from './locales/en/referrer-access.json';
import type kioskScan from './locales/en/kiosk-scan.json';
import type bookingCode from './locales/en/booking-code.json';
import type bookingSteps from './locales/en/booking-steps.json';
import type staffFeedback from './locales/en/staff-feedback.json';
import type unsubscribe from './locales/en/unsubscribe.json';
import type callback from './locales/en/callback.json';
import type staffCallbacks from './locales/en/staff-callbacks.json';
import type staffBookingRequests from './locales/en/staff-booking-requests.json';
import type staffScreeningReviews from './locales/en/staff-screening-reviews.json';
import type staffAppointments from './locales/en/staff-appointments.json';
import type chat from './locales/en/chat.json';
import type consent from './locales/en/consent.json';
import type appointmentReply from './locales/en/appointment-reply.json';
import type waitlistOffer from './locales/en/waitlist-offer.json';

/**
 * Types every t() call against the English catalogue, so an unknown key or a missing
 * interpolation value is a compile error; tests/web/i18n/keys.test.ts checks the literals too.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // pages.json, self-service.json, questionnaires.json, sign-in.json, staff.json, attachments.json and kiosk.json
    // load with their pages (page-texts.ts, self-service-texts.ts, questionnaire-texts.ts,
    // sign-in-texts.ts, staff-texts.ts, attachments-texts.ts, kiosk-texts.ts), staff-kiosks.json with the staff kiosk
    // page (staff-kiosks-texts.ts), results.json with the result page (results-texts.ts), demo-viewer.json with the demo
    // image viewer (demo-viewer-texts.ts), result-sharing.json with the share-results dialog (result-sharing-texts.ts),
    // quick-report.json with the referrer's quick report (quick-report-texts.ts), report-feedback.json with the referrer
    // feedback pages (report-feedback-texts.ts), referrer-access.json with the referrer's report list
    // (referrer-access-texts.ts), kiosk-scan.json with the kiosk home (kiosk-scan-texts.ts), booking-code.json with the
    // booking code box (booking-code-texts.ts), booking-steps.json with the booking steps after the exam choice
    // (booking-steps-texts.ts), staff-feedback.json with the staff feedback table (staff-feedback-texts.ts), unsubscribe.json
    // with the unsubscribe page (unsubscribe-texts.ts), callback.json with the callback request page (callback-texts.ts),
    // staff-callbacks.json with the staff callback queue (staff-callbacks-texts.ts), staff-booking-requests.json with the
    // staff booking-request queue (staff-booking-requests-texts.ts), staff-screening-reviews.json with the screening review
    // queue (staff-screening-reviews-texts.ts), chat.json with the chat panel (chat-texts.ts),
    // consent.json with the analytics consent banner (consent-texts.ts), appointment-reply.json with the reminder's answer
    // page (appointment-reply-texts.ts), staff-appointments.json with the front desk's confirmation list
    // (staff-appointments-texts.ts); typed as one catalogue.
    resources: {
      translation: typeof en &
        typeof pages &
        typeof selfService &
        typeof questionnaires &
        typeof signIn &
        typeof staff &
        typeof attachments &
        typeof staffKiosks &
        typeof kiosk &
        typeof results &
        typeof demoViewer &
        typeof resultSharing &
        typeof quickReport &
        typeof reportFeedback &
        typeof referrerAccess &
        typeof kioskScan &
        typeof bookingCode &
        typeof bookingSteps &
        typeof staffFeedback &
        typeof unsubscribe &
        typeof appointmentReply &
        typeof waitlistOffer &
        typeof callback &
        typeof staffCallbacks &
        typeof staffBookingRequests &
        typeof staffScreeningReviews &
        typeof staffAppointments &
        typeof chat &
        typeof consent;
    };
  }
}
