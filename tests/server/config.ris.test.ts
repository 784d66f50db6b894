import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src-server/config';

// RIS_WEBHOOK_URL / RIS_WEBHOOK_SECRET as parseConfig reads them (docs/rules/check-in.md#hand-off).

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
