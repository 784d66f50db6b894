/** What other modules may use of notifications: queue the booking confirmation mail inside their transaction. */
export { confirmationClinic, queueBookingConfirmation, type BookingConfirmation } from './booking-confirmation';
/** The booking pages' "Add to calendar" file is the mail's own (one event per appointment, the same UID). */
export { bookingConfirmationIcs, ICS_CONTENT_TYPE } from './booking-confirmation';
/** The other mails, with the facts each needs, for the modules that send them (docs/rules/notifications.md#mail-kinds). */
export * from './mail-kinds';
export { mailContext } from './mail-context';
/** The results mail links the after-visit questionnaires still due. */
export { afterVisitQuestionnairesLink } from './questionnaire-links';
export { queueAppointmentNotice, queueBookingRequestReceived, queueScreeningReviewNotice, queueWaitlistNotice } from './booking-notices';
/** Where a mail's footer unsubscribe link goes until the outbox fills in the recipient's own (modules/unsubscribe). */
export { UNSUBSCRIBE_URL_PLACEHOLDER } from './templates/unsubscribe-placeholder';
/** The call-centre mail of a callback request (docs/rules/callbacks.md#the-call-centre-mail). */
export { callbackRequestedMail, type CallbackRequestFacts } from './callback-request';
