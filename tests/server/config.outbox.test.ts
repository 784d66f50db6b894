import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigContext } from '../../src-server/config';

/** The outbox and development-outbox settings in config.ts. */

const context: ConfigContext = { cwd: '/srv/portal', packageVersion: '1.2.3', gitShortHash: 'abc1234' };

describe('parseConfig: outbox settings', () => {
  it('should poll every second, try 10 times, keep sent mail 30 days and show the development outbox by default', () => {
    expect(parseConfig({}, context)).toMatchObject({
      ok: true,
      config: { outboxPollMs: 1000, outboxMaxAttempts: 10, outboxKeepSentDays: 30, mailDevOutboxEnabled: true },
    });
  });

  it('should hide the development outbox with NODE_ENV=production unless asked for', () => {
    expect(parseConfig({ NODE_ENV: 'production' }, context)).toMatchObject({ ok: true, config: { mailDevOutboxEnabled: false } });
    expect(parseConfig({ NODE_ENV: 'production', MAIL_DEV_OUTBOX_ENABLED: 'true' }, context)).toMatchObject({
      ok: true,
      config: { mailDevOutboxEnabled: true },
    });
    expect(parseConfig({ NODE_ENV: 'development', MAIL_DEV_OUTBOX_ENABLED: 'false' }, context)).toMatchObject({
      ok: true,
      config: { mailDevOutboxEnabled: false },
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
  ])('should reject %j with one clear line', (env, line) => {
    expect(parseConfig(env, context)).toEqual({ ok: false, problems: [line] });
  });
});
