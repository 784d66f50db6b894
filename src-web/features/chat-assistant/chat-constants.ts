/**
 * The chat assistant's timings (docs/rules/chat.md#constants). zod-free, so the
 * launcher in the main bundle may read them without pulling the conversation in.
 */

/** The conversation opens this long after the panel opens (a typing indicator meanwhile). */
export const CHAT_OPEN_DELAY_MS = 2000;
/** Files picked are sent together this long after the first pick ... */
export const UPLOAD_FIRST_DEBOUNCE_MS = 3000;
/** ... or this long after a further pick, so the pages of one referral go as one batch. */
export const UPLOAD_NEXT_DEBOUNCE_MS = 1000;
/** Exams offered for the patient's words (the best first), besides "Something else". */
export const CHAT_EXAM_MATCHES = 3;
/** Clinics offered as buttons (nearest first); any other may be typed. */
export const CHAT_CLINIC_CHOICES = 6;
/**
 * The launcher's code is fetched this long after the page has loaded (then at the browser's next
 * quiet moment), as chat widgets commonly are: a phone's first visit downloads and runs only the
 * page itself before it can be used (docs/rules/chat.md#where-it-shows).
 */
export const CHAT_LAUNCHER_DELAY_MS = 3000;
