import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src-server/config';

// RIS_WEBHOOK_URL / RIS_WEBHOOK_SECRET / RIS_CHECK_IN as parseConfig reads them (docs/rules/check-in.md#hand-off).

const context = { cwd: '/srv/portal', packageVersion: '1.0.0', gitShortHash: null };
const SECRET = 'a'.repeat(32);

describe('RIS webhook configuration', () => {
  it('is the demo receiver by default outside production, and never in production', () => {
    const demo = parseConfig({}, context);
    expect(demo.ok && demo.config.ris).toBeNull();
    expect(demo.ok && demo.config.risDemoReceiver).toBe(true);
    const configured = parseConfig({ RIS_WEBHOOK_URL: 'https://ris.example.com/portal', RIS_WEBHOOK_SECRET: SECRET }, context);
    expect(configured.ok && configured.config.ris).toEqual({ url: 'https://ris.example.com/portal', secret: SECRET });
    expect(configured.ok && configured.config.risDemoReceiver).toBe(false);
  });

  it.each([
    [{ RIS_WEBHOOK_URL: 'http://ris.example.com/portal', RIS_WEBHOOK_SECRET: SECRET }, 'RIS_WEBHOOK_URL'],
    [{ RIS_WEBHOOK_URL: 'https://ris.example.com/portal' }, 'RIS_WEBHOOK_SECRET'],
    [{ RIS_WEBHOOK_URL: 'https://ris.example.com/portal', RIS_WEBHOOK_SECRET: 'short' }, 'RIS_WEBHOOK_SECRET'],
    [{ RIS_WEBHOOK_SECRET: SECRET }, 'RIS_WEBHOOK_SECRET'],
  ])('refuses %j with one line naming %s', (env, name) => {
    const result = parseConfig(env, context);
    const lines = result.ok ? [] : result.problems;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^- ${name}: `));
  });
});

describe('RIS_CHECK_IN: the wire of the check-in hand-offs', () => {
  const WEBHOOK = { RIS_WEBHOOK_URL: 'https://ris.example.com/portal', RIS_WEBHOOK_SECRET: SECRET };
  const HL7 = { HL7_RIS_ADDRESS: 'ris.example.internal:2575' };
  const PRODUCTION = {
    NODE_ENV: 'production',
    SESSION_SECRET: 's'.repeat(32),
    PUBLIC_URL: 'https://portal.example.com',
    SMTP_HOST: 'smtp',
    SMTP_FROM: 'p@example.com',
  };
  const chosen = (env: Record<string, string>) => {
    const result = parseConfig(env, context);
    if (!result.ok) throw new Error(result.problems.join('\n'));
    return { risCheckIn: result.config.risCheckIn, risDemoReceiver: result.config.risDemoReceiver };
  };

  it.each([
    ['nothing (the demo receiver)', {}, 'webhook', true],
    ['nothing, in production (queued)', PRODUCTION, 'webhook', false],
    ['RIS_WEBHOOK_URL', WEBHOOK, 'webhook', false],
    ['RIS_WEBHOOK_URL and HL7_RIS_ADDRESS', { ...WEBHOOK, ...HL7 }, 'webhook', false],
    ['HL7_RIS_ADDRESS', HL7, 'hl7', true],
    ['HL7_RIS_ADDRESS in production', { ...PRODUCTION, ...HL7 }, 'hl7', false],
  ])('defaults, with %s set, to %s', (_case, env, risCheckIn, risDemoReceiver) => {
    expect(chosen(env)).toEqual({ risCheckIn, risDemoReceiver });
  });

  it.each([
    [{ ...WEBHOOK, ...HL7, RIS_CHECK_IN: 'hl7' }, 'hl7'],
    [{ ...WEBHOOK, ...HL7, RIS_CHECK_IN: 'webhook' }, 'webhook'],
    [{ ...HL7, RIS_CHECK_IN: 'webhook' }, 'webhook'],
    // The demo RIS stands in for either wire outside production without RIS_WEBHOOK_URL.
    [{ RIS_CHECK_IN: 'hl7' }, 'hl7'],
  ])('takes %j as chosen', (env, risCheckIn) => {
    expect(chosen(env).risCheckIn).toBe(risCheckIn);
  });

  it.each([
    [{ RIS_CHECK_IN: 'mllp' }, /^- RIS_CHECK_IN: must be webhook or hl7, got 'mllp'$/],
    [{ ...WEBHOOK, RIS_CHECK_IN: 'hl7' }, /^- RIS_CHECK_IN: hl7 needs HL7_RIS_ADDRESS/],
    [{ ...PRODUCTION, RIS_CHECK_IN: 'hl7' }, /^- RIS_CHECK_IN: hl7 needs HL7_RIS_ADDRESS/],
    [{ ...PRODUCTION, ...HL7, RIS_CHECK_IN: 'webhook' }, /^- RIS_CHECK_IN: webhook needs RIS_WEBHOOK_URL/],
  ])('refuses %j with one line', (env, line) => {
    const result = parseConfig(env, context);
    const lines = result.ok ? [] : result.problems;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });
});
