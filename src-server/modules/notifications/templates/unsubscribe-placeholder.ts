/**
 * Where the footer's unsubscribe link goes. A mail is rendered when it is queued, but the link is
 * the recipient's own and signed when the mail goes out (modules/unsubscribe fills it in, and the
 * preview puts a sample link), so the layout writes this marker. Only characters React leaves as
 * they are, so the HTML and the text part both hold it verbatim. A module of its own: the server
 * reads it at start, the templates (react-email) load with the first mail.
 */
export const UNSUBSCRIBE_URL_PLACEHOLDER = 'https://unsubscribe.invalid/__unsubscribe_url__';
