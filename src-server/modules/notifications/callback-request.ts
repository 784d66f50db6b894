import type * as template from './templates/callback-request-mail';

export type { CallbackRequestFacts } from './templates/callback-request-mail';

/**
 * The call-centre mail of a callback request (docs/rules/callbacks.md#the-call-centre-mail). Its
 * template (react-email, about a quarter of a second to import) loads with the first mail, not
 * when the server starts.
 */
export const callbackRequestedMail: typeof template.callbackRequestedMail = async (facts, context) =>
  (await import('./templates/callback-request-mail')).callbackRequestedMail(facts, context);
