import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigContext } from '../../src-server/config';

/** The outbox and development-outbox settings in config.ts. */

const context: ConfigContext = { cwd: '/srv/portal', packageVersion: '1.2.3', gitShortHash: 'abc1234' };
const SMTP = { SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'portal@example.com' };
const SMS = { SMS_PROVIDER_URL: 'https://sms.example.com/send', SMS_PROVIDER_API_KEY: 'key' };
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), PUBLIC_URL: 'https://portal.example.com', ...SMTP };

describe('parseConfig: outbox settings', () => {
  it('should poll every second, try 10 times, keep sent mail 30 days and leave the development outbox to the demo provider by default', () => {
    expect(parseConfig({}, context)).toMatchObject({
      ok: true,
      config: { outboxPollMs: 1000, outboxMaxAttempts: 10, outboxKeepSentDays: 30, mailDevOutbox: 'demo' },
    });
  });

  it.each([
    ['SMTP_HOST', SMTP],
    ['SMS_PROVIDER_URL', SMS],
    ['NODE_ENV=production', PRODUCTION],
  ])('should turn the development outbox off by default with %s', (_label, env) => {
    expect(parseConfig(env, context)).toMatchObject({ ok: true, config: { mailDevOutbox: 'off' } });
  });

  it('should follow an explicit true or false where real mail is not configured', () => {
    expect(parseConfig({ MAIL_DEV_OUTBOX_ENABLED: 'true' }, context)).toMatchObject({ ok: true, config: { mailDevOutbox: 'on' } });
    expect(parseConfig({ NODE_ENV: 'development', MAIL_DEV_OUTBOX_ENABLED: 'false' }, context)).toMatchObject({
      ok: true,
      config: { mailDevOutbox: 'off' },
    });
    expect(parseConfig({ ...SMTP, MAIL_DEV_OUTBOX_ENABLED: 'false' }, context)).toMatchObject({
      ok: true,
      config: { mailDevOutbox: 'off' },
    });
  });

  it('should read valid values', () => {
    expect(parseConfig({ OUTBOX_POLL_MS: '250', OUTBOX_MAX_ATTEMPTS: '3', OUTBOX_KEEP_SENT_DAYS: '7' }, context)).toMatchObject({
      ok: true,
      config: { outboxPollMs: 250, outboxMaxAttempts: 3, outboxKeepSentDays: 7 },
    });
  });

  it.each([
    [{ OUTBOX_POLL_MS: '50' }, "- OUTBOX_POLL_MS: must be a whole number of milliseconds from 100 to 600000, got '50'"],
    [{ OUTBOX_POLL_MS: '1s' }, "- OUTBOX_POLL_MS: must be a whole number of milliseconds from 100 to 600000, got '1s'"],
    [{ OUTBOX_MAX_ATTEMPTS: '0' }, "- OUTBOX_MAX_ATTEMPTS: must be a whole number from 1 to 100, got '0'"],
    [{ OUTBOX_MAX_ATTEMPTS: '101' }, "- OUTBOX_MAX_ATTEMPTS: must be a whole number from 1 to 100, got '101'"],
    [{ OUTBOX_KEEP_SENT_DAYS: '0' }, "- OUTBOX_KEEP_SENT_DAYS: must be a whole number of days from 1 to 3650, got '0'"],
    [{ MAIL_DEV_OUTBOX_ENABLED: 'yes' }, "- MAIL_DEV_OUTBOX_ENABLED: must be true or false, got 'yes'"],
    [
      { ...SMTP, MAIL_DEV_OUTBOX_ENABLED: 'true' },
      '- MAIL_DEV_OUTBOX_ENABLED: true is not allowed with SMTP_HOST set: real messages go out, so the outbox would only expose them; unset one of them',
    ],
    [
      { ...SMS, MAIL_DEV_OUTBOX_ENABLED: 'true' },
      '- MAIL_DEV_OUTBOX_ENABLED: true is not allowed with SMS_PROVIDER_URL set: real messages go out, so the outbox would only expose them; unset one of them',
    ],
    [
      { ...SMTP, ...SMS, MAIL_DEV_OUTBOX_ENABLED: 'true' },
      '- MAIL_DEV_OUTBOX_ENABLED: true is not allowed with SMTP_HOST and SMS_PROVIDER_URL set: real messages go out, so the outbox would only expose them; unset one of them',
    ],
  ])('should reject %j with one clear line', (env, line) => {
    expect(parseConfig(env, context)).toEqual({ ok: false, problems: [line] });
  });

  it('should refuse the development outbox in production even when asked for', () => {
    expect(parseConfig({ ...PRODUCTION, MAIL_DEV_OUTBOX_ENABLED: 'true' }, context)).toEqual({
      ok: false,
      problems: [
        "- MAIL_DEV_OUTBOX_ENABLED: true is not allowed with NODE_ENV=production: the outbox shows patients' mail; unset it",
        '- MAIL_DEV_OUTBOX_ENABLED: true is not allowed with SMTP_HOST set: real messages go out, so the outbox would only expose them; unset one of them',
      ],
    });
  });
});
