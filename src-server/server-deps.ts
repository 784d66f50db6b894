import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config';
import type { Database } from './db/connection';
import type { BookingLimits } from './modules/booking/booking-limits';
import type { CallbackLimits } from './modules/callbacks/public';
import type { StaffIdentityOptions } from './modules/staff-access/routes';
import type { CaptchaWork } from './platform/captcha/captcha';
import type { Clock } from './platform/clock';
import type { LoggerOptions } from './platform/logger';
import type { Mailer } from './platform/mailer';
import type { FileStorage } from './platform/storage';
import type { VirusScanner } from './platform/virus-scan';

/**
 * Every I/O dependency of the server (docs/server.md#buildserverdeps): tests build it on a real
 * PGlite or PostgreSQL, main.ts on the configured database.
 */
export interface ServerDeps {
  db: Database;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  /** Where attachments' bytes live: a folder under DATA_DIR, or S3-compatible storage (docs/rules/attachments.md#storage). */
  storage: FileStorage;
  /** ClamAV when CLAMAV_SOCKET is set; default none (docs/rules/attachments.md#virus-scanning). */
  scanner?: VirusScanner;
  logger: LoggerOptions;
  /** How much work a proof-of-work challenge asks for; tests make it cheap. Default DEFAULT_CAPTCHA_WORK. */
  captchaWork?: CaptchaWork;
  /** Booking limits per client and contact; default DEFAULT_BOOKING_LIMITS (docs/rules/booking.md#booking-limits). */
  bookingLimits?: BookingLimits;
  /** Callback request limits per client and phone number; default DEFAULT_CALLBACK_LIMITS (docs/rules/callbacks.md#limits). */
  callbackLimits?: CallbackLimits;
  /**
   * Staff sign-in through the provider's identity provider (docs/rules/staff-access.md): issuer,
   * JWKS URI, audience and the claim-to-role mapping. Without it the staff-access routes are not
   * registered and every staff guard answers 401.
   */
  identity?: StaffIdentityOptions;
  /**
   * The local demo identity provider inside the portal (src-server/dev-identity/provider.ts,
   * /dev/idp): it answers its own requests before Fastify sees them, as a separate application on
   * the same origin with its own forms, cookies and headers; false hands a request on.
   */
  identityMount?: (request: IncomingMessage, response: ServerResponse) => boolean;
}
