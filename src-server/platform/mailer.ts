import type { Transporter } from 'nodemailer';
import type { SmtpConfig } from '../config';

/**
 * Outgoing mail. SMTP through nodemailer when SMTP_HOST is configured; otherwise a mailer that
 * refuses every send with a typed error, so a missing configuration is visible instead of mail
 * silently vanishing. Features never call it directly: they queue mail in the database outbox
 * (platform/outbox), whose worker calls send() and retries.
 */

/** A text attachment such as an .ics calendar file. */
export interface MailAttachment {
  filename: string;
  /** e.g. 'text/calendar; charset=utf-8; method=PUBLISH' */
  contentType: string;
  /** Text as is, or binary as base64 (encoding). */
  content: string;
  encoding?: 'base64';
  /** Shown inline in the HTML part as <img src="cid:…"> (the booking code). */
  cid?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: readonly MailAttachment[];
  /** Extra header lines, e.g. List-Unsubscribe (RFC 8058); names and values on one line each. */
  headers?: Readonly<Record<string, string>>;
}

export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

export class MailNotConfiguredError extends Error {
  readonly code = 'mail_not_configured';
  constructor() {
    super('No mail transport is configured: set SMTP_HOST and SMTP_FROM to send e-mail.');
    this.name = 'MailNotConfiguredError';
  }
}

export const noTransportMailer: Mailer = {
  configured: false,
  send: () => Promise.reject(new MailNotConfiguredError()),
  close: () => Promise.resolve(),
};

export interface SmtpMailerOptions {
  /** Extra certificate authorities to trust (tests with a self-signed server); the system's otherwise. */
  ca?: string;
}

/**
 * @param smtp - from config: port 465 is implicit TLS; other ports upgrade with STARTTLS when the
 * server offers it, and must when a user and password are set, so they never cross in clear.
 */
export function createSmtpMailer(smtp: SmtpConfig, options: SmtpMailerOptions = {}): Mailer {
  let opening: Promise<Transporter> | undefined;
  return {
    configured: true,
    async send(message) {
      const transport = await (opening ??= openSmtpTransport(smtp, options));
      const info = await transport.sendMail({
        from: smtp.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
        ...(message.headers === undefined ? {} : { headers: oneLineHeaders(message.headers) }),
        ...(message.attachments === undefined || message.attachments.length === 0
          ? {}
          : {
              attachments: message.attachments.map((attachment) => ({
                filename: attachment.filename,
                contentType: attachment.contentType,
                content: attachment.content,
                ...(attachment.encoding === undefined ? {} : { encoding: attachment.encoding }),
                ...(attachment.cid === undefined ? {} : { cid: attachment.cid, contentDisposition: 'inline' as const }),
              })),
            }),
      });
      return { messageId: info.messageId };
    },
    async close() {
      if (opening !== undefined) (await opening).close();
    },
  };
}

/** nodemailer loads with the first mail, not at start (a server without SMTP never loads it). */
async function openSmtpTransport(smtp: SmtpConfig, options: SmtpMailerOptions): Promise<Transporter> {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport({
    // One reused connection: the outbox sends one mail after another, and a new connection (with
    // its TLS handshake) per mail costs about 100 ms even on the loopback.
    pool: true,
    maxConnections: 1,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: !smtp.secure && smtp.auth !== null,
    ...(options.ca === undefined ? {} : { tls: { ca: options.ca } }),
    ...(smtp.auth === null ? {} : { auth: { user: smtp.auth.user, pass: smtp.auth.password } }),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}

/** Header names and values as one line each: a line break in a value would start a header of its own. */
function oneLineHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const lines: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[A-Za-z][A-Za-z0-9-]{0,76}$/.test(name)) throw new Error(`[mailer] header name not allowed: ${name}`);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new Error(`[mailer] header ${name} holds a control character`);
    lines[name] = value;
  }
  return lines;
}

export function createMailer(smtp: SmtpConfig | null): Mailer {
  return smtp === null ? noTransportMailer : createSmtpMailer(smtp);
}
