import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigContext } from '../../src-server/config';

/** NODE_ENV=production refuses to start without what a real deployment needs (README#running-it-in-production). */

const context: ConfigContext = { cwd: '/srv/portal', packageVersion: '1.2.3', gitShortHash: 'abc1234' };
const READY = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'a-random-session-secret-of-32-chars!',
  PUBLIC_URL: 'https://portal.example.com',
  SMTP_HOST: 'smtp.example.com',
  SMTP_FROM: 'Portal <portal@example.com>',
};

function without(name: keyof typeof READY): Record<string, string> {
  const env: Record<string, string> = { ...READY };
  delete env[name];
  return env;
}

describe('parseConfig with NODE_ENV=production', () => {
  it('should start with a session secret, an https public URL and SMTP', () => {
    expect(parseConfig(READY, context)).toMatchObject({
      ok: true,
      config: { publicUrl: 'https://portal.example.com', sessionSecret: READY.SESSION_SECRET, mailDevOutbox: 'off' },
    });
  });

  it.each([
    [
      'SESSION_SECRET',
      without('SESSION_SECRET'),
      '- SESSION_SECRET: is required with NODE_ENV=production: set it to a random value of at least 32 characters, e.g. the output of `openssl rand -hex 32`',
    ],
    [
      'PUBLIC_URL',
      without('PUBLIC_URL'),
      '- PUBLIC_URL: is required with NODE_ENV=production: set it to the https address patients use, e.g. https://portal.example.com',
    ],
    [
      'an http PUBLIC_URL',
      { ...READY, PUBLIC_URL: 'http://portal.example.com' },
      "- PUBLIC_URL: must be https with NODE_ENV=production (patients' links and sign-ins travel over it), got 'http://portal.example.com'",
    ],
    [
      'SMTP_HOST',
      without('SMTP_HOST'),
      '- SMTP_HOST: is required with NODE_ENV=production: patients need their confirmations and one-time codes; set SMTP_HOST and SMTP_FROM',
    ],
  ])('should refuse to start without %s, with one line naming it', (_label, env, line) => {
    const result = parseConfig(env, context);
    // Without SMTP_HOST, SMTP_FROM alone is also reported (set without its host).
    expect(result.ok ? [] : result.problems.filter((problem) => !problem.startsWith('- SMTP_FROM:'))).toEqual([line]);
  });

  it('should list every missing variable at once', () => {
    expect(parseConfig({ NODE_ENV: 'production' }, context)).toEqual({
      ok: false,
      problems: [
        '- SESSION_SECRET: is required with NODE_ENV=production: set it to a random value of at least 32 characters, e.g. the output of `openssl rand -hex 32`',
        '- PUBLIC_URL: is required with NODE_ENV=production: set it to the https address patients use, e.g. https://portal.example.com',
        '- SMTP_HOST: is required with NODE_ENV=production: patients need their confirmations and one-time codes; set SMTP_HOST and SMTP_FROM',
      ],
    });
  });

  it('should report a malformed PUBLIC_URL once, not also as not https', () => {
    expect(parseConfig({ ...READY, PUBLIC_URL: 'ftp://portal' }, context)).toEqual({
      ok: false,
      problems: ["- PUBLIC_URL: must be an http(s) URL such as https://portal.example.com, got 'ftp://portal'"],
    });
  });

  it('should not ask for them outside production', () => {
    expect(parseConfig({ NODE_ENV: 'development' }, context).ok).toBe(true);
  });
});
