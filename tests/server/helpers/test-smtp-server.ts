import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { SmtpConfig } from '../../../src-server/config';

/**
 * A real SMTP server inside the test process (smtp-server), so the outbox is tested against the
 * protocol and not against a mock: what arrives is parsed with mailparser.
 */

export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  /** Who logged in, when the client authenticated. */
  user: string | null;
  /** The session was encrypted (STARTTLS) when the mail was handed over. */
  secure: boolean;
  raw: string;
  parsed: ParsedMail;
}

export interface TestSmtpServerOptions {
  /** Recipients answered with 550 (user unknown). */
  rejectRecipient?: (address: string) => boolean;
  /** When set, AUTH is required and must match. */
  credentials?: { user: string; password: string };
  /** Delay before accepting each message, to let concurrent senders interleave. */
  acceptDelayMs?: number;
  /** Offer STARTTLS with this key and certificate (see selfSignedCertificate). */
  tls?: { key: string; cert: string };
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** Every AUTH attempt the server saw, right or wrong. */
  authAttempts: number;
  /** Waits until `count` mails have arrived (fails after timeoutMs). */
  waitForMails(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

/** A TCP port nothing listens on right now (for "the mail server is down"). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('freePort: no address');
  return address.port;
}

/** A throw-away certificate for 127.0.0.1 made with the openssl command line (an EC key: fast). */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-smtp-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function smtpConfigFor(port: number, auth: SmtpConfig['auth'] = null): SmtpConfig {
  return { host: '127.0.0.1', port, secure: false, auth, from: 'Demo Radiology <bookings@demo-radiology.example>' };
}

/**
 * Starts the server on `port` (0: any free port).
 */
export async function startTestSmtpServer(port = 0, options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { authAttempts: 0 };
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    // No TLS certificate here: the client must fall back to plain SMTP on the loopback.
    disabledCommands: [...(options.tls === undefined ? ['STARTTLS'] : []), ...(options.credentials === undefined ? ['AUTH'] : [])],
    ...(options.tls === undefined ? {} : { key: options.tls.key, cert: options.tls.cert }),
    authOptional: options.credentials === undefined,
    allowInsecureAuth: true,
    logger: false,
    // No reverse DNS for 127.0.0.1: it only slows every connection down.
    disableReverseLookup: true,
    onAuth(auth, _session, callback) {
      state.authAttempts += 1;
      const expected = options.credentials;
      if (expected !== undefined && auth.username === expected.user && auth.password === expected.password) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient?.(address.address)) {
        const error: Error & { responseCode?: number } = new Error(`<${address.address}>: Recipient address rejected: user unknown`);
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then(
          (parsed) => {
            const accept = (): void => {
              received.push({
                envelopeFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
                envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
                user: typeof session.user === 'string' ? session.user : null,
                secure: session.secure,
                raw,
                parsed,
              });
              for (const waiter of waiters.splice(0)) waiter();
              callback();
            };
            if (options.acceptDelayMs === undefined) accept();
            else setTimeout(accept, options.acceptDelayMs);
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  // smtp-server reports a connection's socket errors on the server: a client that dies mid-session
  // (the cluster test kills a portal server) resets its connection, which must not end the test run.
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('test SMTP server: no address');
  return {
    port: address.port,
    received,
    get authAttempts() {
      return state.authAttempts;
    },
    async waitForMails(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`test SMTP server: ${received.length} of ${count} mails arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface LoggedLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  data: object;
}

/** An OutboxLogger that keeps what was logged, for assertions (and keeps test output quiet). */
export function collectingLogger(): {
  lines: LoggedLine[];
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
} {
  const lines: LoggedLine[] = [];
  return {
    lines,
    info: (data, message) => lines.push({ level: 'info', message, data }),
    warn: (data, message) => lines.push({ level: 'warn', message, data }),
    error: (data, message) => lines.push({ level: 'error', message, data }),
  };
}
