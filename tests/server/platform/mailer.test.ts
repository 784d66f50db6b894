import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, MailNotConfiguredError, noTransportMailer } from '../../../src-server/platform/mailer';

describe('mailer', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const address = server.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses to send with a typed error when SMTP is not configured', async () => {
    expect(createMailer(null)).toBe(noTransportMailer);
    expect(noTransportMailer.configured).toBe(false);
    await expect(noTransportMailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(MailNotConfiguredError);
  });

  it('sends through the configured SMTP server', async () => {
    const mailer = createMailer({ host: '127.0.0.1', port, secure: false, auth: null, from: 'Portal <portal@example.com>' });
    const result = await mailer.send({ to: 'patient@example.com', subject: 'Your appointment', text: 'See you soon' });
    await mailer.close();
    expect(result.messageId).toMatch(/@/);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'portal@example.com', to: ['patient@example.com'] });
    expect(received[0]?.data).toContain('Subject: Your appointment');
    expect(received[0]?.data).toContain('See you soon');
  });
});
