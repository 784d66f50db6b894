import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src-server/config';

// SMS_PROVIDER_URL / SMS_PROVIDER_API_KEY and SESSION_SECRET as parseConfig reads them.

const context = { cwd: '/srv/portal', packageVersion: '1.0.0', gitShortHash: null };

function problems(env: Record<string, string>): string[] {
  const result = parseConfig(env, context);
  return result.ok ? [] : result.problems;
}

describe('SMS and session secret configuration', () => {
  it('is off by default: no SMS, the database secret', () => {
    const result = parseConfig({}, context);
    expect(result.ok && result.config.sms).toBeNull();
    expect(result.ok && result.config.sessionSecret).toBeNull();
  });

  it('reads an https provider with its key, and http only on the loopback', () => {
    const https = parseConfig({ SMS_PROVIDER_URL: 'https://sms.example.com/send', SMS_PROVIDER_API_KEY: 'k-1' }, context);
    expect(https.ok && https.config.sms).toEqual({ url: 'https://sms.example.com/send', apiKey: 'k-1' });
    const local = parseConfig({ SMS_PROVIDER_URL: 'http://127.0.0.1:9000/sms', SMS_PROVIDER_API_KEY: 'k' }, context);
    expect(local.ok && local.config.sms).toEqual({ url: 'http://127.0.0.1:9000/sms', apiKey: 'k' });
  });

  it.each([
    [{ SMS_PROVIDER_URL: 'http://sms.example.com/send', SMS_PROVIDER_API_KEY: 'k' }, 'SMS_PROVIDER_URL'],
    [{ SMS_PROVIDER_URL: 'not a url', SMS_PROVIDER_API_KEY: 'k' }, 'SMS_PROVIDER_URL'],
    [{ SMS_PROVIDER_URL: 'https://user:pw@sms.example.com/', SMS_PROVIDER_API_KEY: 'k' }, 'SMS_PROVIDER_URL'],
    [{ SMS_PROVIDER_URL: 'https://sms.example.com/send' }, 'SMS_PROVIDER_API_KEY'],
    [{ SMS_PROVIDER_API_KEY: 'k' }, 'SMS_PROVIDER_API_KEY'],
    [{ SMS_PROVIDER_URL: 'https://sms.example.com/send', SMS_PROVIDER_API_KEY: 'two words' }, 'SMS_PROVIDER_API_KEY'],
    [{ SESSION_SECRET: 'too-short' }, 'SESSION_SECRET'],
  ])('refuses %j with one line naming %s', (env, name) => {
    const lines = problems(env);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^- ${name}: `));
  });

  it('never quotes the secret or the key back', () => {
    const lines = problems({
      SESSION_SECRET: 'short-secret-value',
      SMS_PROVIDER_URL: 'https://sms.example.com',
      SMS_PROVIDER_API_KEY: 'secret key',
    });
    expect(lines.join('\n')).not.toContain('short-secret-value');
    expect(lines.join('\n')).not.toContain('secret key');
  });

  it('accepts a SESSION_SECRET of 32 characters or more', () => {
    const secret = 'x'.repeat(32);
    const result = parseConfig({ SESSION_SECRET: secret }, context);
    expect(result.ok && result.config.sessionSecret).toBe(secret);
  });
});
