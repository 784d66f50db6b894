import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigContext } from '../../src-server/config';

/** TRUST_PROXY and SOURCE_MAPS in config.ts (config-parsers.ts). */

const context: ConfigContext = { cwd: '/srv/portal', packageVersion: '1.2.3', gitShortHash: 'abc1234' };

describe('parseConfig: TRUST_PROXY', () => {
  it.each([
    [{}, []],
    [{ TRUST_PROXY: 'false' }, []],
    [{ TRUST_PROXY: '127.0.0.1' }, ['127.0.0.1']],
    [{ TRUST_PROXY: ' 10.0.0.0/8 , 2001:db8::/32,10.0.0.0/8,Loopback ' }, ['10.0.0.0/8', '2001:db8::/32', 'loopback']],
    [{ TRUST_PROXY: '192.0.2.1/32, ::1, uniquelocal, linklocal' }, ['192.0.2.1/32', '::1', 'uniquelocal', 'linklocal']],
  ])('should read %j as %j', (env, trustProxy) => {
    expect(parseConfig(env, context)).toMatchObject({ ok: true, config: { trustProxy } });
  });

  it.each([
    [
      'true',
      "- TRUST_PROXY: 'true' would trust every peer, so anyone could claim any address in X-Forwarded-For; list your proxies instead, e.g. 10.0.0.5 or 10.0.0.0/8",
    ],
    [
      '*',
      "- TRUST_PROXY: '*' would trust every peer, so anyone could claim any address in X-Forwarded-For; list your proxies instead, e.g. 10.0.0.5 or 10.0.0.0/8",
    ],
    [
      '0.0.0.0/0',
      "- TRUST_PROXY: '0.0.0.0/0' trusts every address, so anyone could claim any address in X-Forwarded-For; list your proxies instead",
    ],
    ['::/0', "- TRUST_PROXY: '::/0' trusts every address, so anyone could claim any address in X-Forwarded-For; list your proxies instead"],
    [
      'proxy.internal',
      "- TRUST_PROXY: 'proxy.internal' is not an IP address or CIDR range such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)",
    ],
    [
      '10.0.0.0/33',
      "- TRUST_PROXY: '10.0.0.0/33' is not an IP address or CIDR range such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)",
    ],
    [
      '10.0.0.256',
      "- TRUST_PROXY: '10.0.0.256' is not an IP address or CIDR range such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)",
    ],
    [
      '10.0.0.0/8/1',
      "- TRUST_PROXY: '10.0.0.0/8/1' is not an IP address or CIDR range such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)",
    ],
    [
      'fe80::1%eth0',
      "- TRUST_PROXY: 'fe80::1%eth0' is not an IP address or CIDR range such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)",
    ],
    [
      '10.0.0.0/x',
      "- TRUST_PROXY: '10.0.0.0/x' is not an IP address or CIDR range such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)",
    ],
  ])('should refuse %j with one clear line', (value, line) => {
    expect(parseConfig({ TRUST_PROXY: value }, context)).toEqual({ ok: false, problems: [line] });
  });

  it('should report each bad entry of a list and keep none of it', () => {
    const result = parseConfig({ TRUST_PROXY: '10.0.0.1, true, nope' }, context);
    expect(result.ok ? [] : result.problems).toHaveLength(2);
  });
});

describe('parseConfig: SOURCE_MAPS', () => {
  it('should keep source maps private unless public is asked for', () => {
    expect(parseConfig({}, context)).toMatchObject({ ok: true, config: { sourceMapsPublic: false } });
    expect(parseConfig({ SOURCE_MAPS: 'off' }, context)).toMatchObject({ ok: true, config: { sourceMapsPublic: false } });
    expect(parseConfig({ SOURCE_MAPS: 'public' }, context)).toMatchObject({ ok: true, config: { sourceMapsPublic: true } });
  });

  it('should refuse anything else', () => {
    expect(parseConfig({ SOURCE_MAPS: 'true' }, context)).toEqual({
      ok: false,
      problems: ["- SOURCE_MAPS: must be public or off, got 'true'"],
    });
  });
});
