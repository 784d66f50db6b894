import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { denyWindowOpen, installNavigationPolicy, isAllowedNavigation, originForLog } from '../../src-main/navigation-policy';
import { FakeWebContents, MemoryLog } from './helpers/fake-electron';

const PORTAL = 'https://portal.example.com';

describe('isAllowedNavigation', () => {
  it.each([
    ['https://portal.example.com/', true],
    ['https://portal.example.com/kiosk?kioskMode=true', true],
    ['https://portal.example.com/iframe/select-region#top', true],
    ['https://portal.example.com:443/about', true],
    ['HTTPS://PORTAL.Example.COM/about', true],
    ['https://portal.example.com.evil.com/', false],
    ['https://portal.example.com@evil.com/', false],
    ['https://user:pass@portal.example.com/', false],
    ['https://user@portal.example.com/', false],
    ['https://evil.com/?next=https://portal.example.com', false],
    ['https://evil.com/https://portal.example.com', false],
    ['https://portal.example.com./', false],
    ['http://portal.example.com/', false],
    ['https://portal.example.com:8443/', false],
    ['https://sub.portal.example.com/', false],
    ['https://example.com/', false],
    ['javascript:alert(1)', false],
    ['JavaScript:alert(document.domain)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['file:///etc/passwd', false],
    ['blob:https://portal.example.com/0b1c', false],
    ['about:blank', false],
    ['view-source:https://portal.example.com/', false],
    ['//portal.example.com/', false],
    ['/kiosk', false],
    ['', false],
    ['not a url', false],
  ])('%s -> %s', (url, allowed) => {
    expect(isAllowedNavigation(url, PORTAL)).toBe(allowed);
  });

  it('accepts the allowed origin written with a trailing slash or path', () => {
    expect(isAllowedNavigation('https://portal.example.com/x', 'https://portal.example.com/')).toBe(true);
    expect(isAllowedNavigation('http://localhost:3000/kiosk', 'http://localhost:3000')).toBe(true);
    expect(isAllowedNavigation('http://localhost:3001/kiosk', 'http://localhost:3000')).toBe(false);
  });

  it('refuses everything when the allowed origin itself is not a web origin', () => {
    expect(isAllowedNavigation('file:///kiosk', 'file:///')).toBe(false);
    expect(isAllowedNavigation('https://portal.example.com/', 'garbage')).toBe(false);
  });

  it('never allows a random URL unless its parsed origin is the portal origin', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()), (url) => {
        let sameOrigin = false;
        try {
          const parsed = new URL(url);
          sameOrigin = parsed.origin === PORTAL && parsed.username === '' && parsed.password === '';
        } catch {
          sameOrigin = false;
        }
        expect(isAllowedNavigation(url, PORTAL)).toBe(sameOrigin);
      }),
      { numRuns: 2000 },
    );
  });

  it('allows a URL assembled from random parts only when scheme, host, port and credentials are exactly the portal', () => {
    // The oracle is written from the parts, not with URL parsing, so it checks the parser-based code independently.
    const scheme = fc.constantFrom('https', 'HTTPS', 'http', 'javascript', 'data', 'file', 'wss');
    const userinfo = fc.constantFrom('', 'user@', 'user:pw@', 'portal.example.com@');
    const host = fc.constantFrom(
      'portal.example.com',
      'PORTAL.example.COM',
      'portal.example.com.',
      'portal.example.co',
      'evil.com',
      'portal.example.com.evil.com',
      'xportal.example.com',
    );
    const port = fc.constantFrom('', ':443', ':8443', ':80');
    fc.assert(
      fc.property(scheme, userinfo, host, port, fc.webPath(), (s, u, h, p, path) => {
        const url = `${s}://${u}${h}${p}${path}`;
        const expected = s.toLowerCase() === 'https' && u === '' && h.toLowerCase() === 'portal.example.com' && (p === '' || p === ':443');
        expect(isAllowedNavigation(url, PORTAL)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('never allows a look-alike host built around the portal host', () => {
    const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    fc.assert(
      fc.property(label, fc.constantFrom('prefix', 'suffix', 'userinfo', 'dot'), (extra, shape) => {
        const url = {
          prefix: `https://${extra}.portal.example.com/`,
          suffix: `https://portal.example.com.${extra}.com/`,
          userinfo: `https://portal.example.com@${extra}.com/`,
          dot: `https://portal.example.com${extra.startsWith('-') ? '' : '.'}${extra}/`,
        }[shape];
        expect(isAllowedNavigation(url, PORTAL)).toBe(false);
      }),
    );
  });

  it('allows any path, query and fragment on the portal origin', () => {
    fc.assert(
      fc.property(fc.webPath(), fc.webQueryParameters(), fc.webFragments(), (path, query, fragment) => {
        expect(isAllowedNavigation(`${PORTAL}${path}?${query}#${fragment}`, PORTAL)).toBe(true);
      }),
    );
  });
});

describe('originForLog', () => {
  it('keeps only the origin so a booking key in the path or query never reaches the log', () => {
    expect(originForLog('https://portal.example.com/appointments/SECRET-KEY?dateOfBirth=1990-01-01')).toBe('https://portal.example.com');
    expect(originForLog('data:text/html,secret')).toBe('data:(opaque)');
    expect(originForLog('::')).toBe('(unparseable url)');
  });
});

describe('installNavigationPolicy', () => {
  const setUp = () => {
    const contents = new FakeWebContents();
    const log = new MemoryLog();
    installNavigationPolicy(contents, PORTAL, log);
    return { contents, log };
  };

  it.each(['will-navigate', 'will-frame-navigate'] as const)('cancels %s to a foreign origin and lets the portal through', (event) => {
    const { contents, log } = setUp();
    expect(contents.emitNavigation(event, 'https://evil.com/phish?bookingKey=ABC')).toBe(true);
    expect(contents.emitNavigation(event, 'https://portal.example.com.evil.com/')).toBe(true);
    expect(contents.emitNavigation(event, 'javascript:alert(1)')).toBe(true);
    expect(contents.emitNavigation(event, 'https://portal.example.com/about')).toBe(false);
    expect(log.text()).toContain(`blocked ${event} to https://evil.com`);
    expect(log.text()).not.toContain('ABC');
  });

  it('cancels a subframe navigating to a foreign origin', () => {
    const { contents } = setUp();
    expect(contents.emitNavigation('will-frame-navigate', 'https://ads.example.net/frame', false)).toBe(true);
    expect(contents.emitNavigation('will-frame-navigate', 'https://portal.example.com/iframe/about', false)).toBe(false);
  });

  it('denies every window.open, even to the portal itself', () => {
    const { contents } = setUp();
    expect(contents.requestWindowOpen('https://evil.com/')).toEqual({ action: 'deny' });
    expect(contents.requestWindowOpen('https://portal.example.com/terms')).toEqual({ action: 'deny' });
    expect(
      denyWindowOpen({
        url: 'https://portal.example.com/',
        frameName: '',
        features: '',
        disposition: 'foreground-tab',
        referrer: { url: '', policy: 'default' },
      }),
    ).toEqual({ action: 'deny' });
  });
});
