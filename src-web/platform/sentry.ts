// Named imports only, so the bundler keeps the SDK's core and drops replay, feedback and tracing.
export { captureException, init } from '@sentry/react';
