/** What the app may use of callback requests (docs/rules/callbacks.md). */
export { createCallbackService, type CallbackService } from './service';
export { registerCallbackRoutes } from './routes';
export { DEFAULT_CALLBACK_LIMITS, type CallbackLimits } from './callback-limits';
