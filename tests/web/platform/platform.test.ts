import { describe, expect, it } from 'vitest';
import { detectDevice, shouldZoom, type DeviceSignals } from '@contract/shell/device';
import { scrubUrl } from '../../../src-web/platform/error-report-scrub';
import { isKioskPath } from '../../../src-web/platform/kiosk';
import { headerImageFor, pageType } from '@contract/shell/page-type';
import { safeInternalPath } from '../../../src-web/platform/safe-url';
import { contrastRatio, readableColor } from '@contract/shell/theme-variables';

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  androidPhone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ipadAsMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  androidTablet: 'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  desktop: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
};

const signals = (overrides: Partial<DeviceSignals>): DeviceSignals => ({
  userAgent: UA.desktop,
  width: 1440,
  maxTouchPoints: 0,
  kiosk: false,
  ...overrides,
});

describe('detectDevice', () => {
  it.each([
    ['a desktop browser', signals({}), 'desktop'],
    ['a narrow desktop window', signals({ width: 375 }), 'mobile'],
    ['an iPhone', signals({ userAgent: UA.iphone, width: 390, maxTouchPoints: 5 }), 'mobile'],
    ['a phone in landscape', signals({ userAgent: UA.androidPhone, width: 915, maxTouchPoints: 5 }), 'mobile'],
    ['an iPad', signals({ userAgent: UA.ipad, width: 820, maxTouchPoints: 5 }), 'tablet'],
    ['an iPad reporting a Mac', signals({ userAgent: UA.ipadAsMac, width: 1024, maxTouchPoints: 5 }), 'tablet'],
    ['a real Mac', signals({ userAgent: UA.ipadAsMac, width: 1440, maxTouchPoints: 0 }), 'desktop'],
    ['an Android tablet', signals({ userAgent: UA.androidTablet, width: 1280, maxTouchPoints: 10 }), 'tablet'],
    ['a touch screen of tablet width', signals({ width: 1100, maxTouchPoints: 10 }), 'tablet'],
    ['a kiosk', signals({ kiosk: true, width: 1080, maxTouchPoints: 10 }), 'kiosk'],
    ['a narrow kiosk', signals({ kiosk: true, width: 600 }), 'kiosk'],
  ])('should classify %s', (_name, input, expected) => {
    expect(detectDevice(input)).toBe(expected);
  });
});

describe('shouldZoom (heights up to 768 px, not phones)', () => {
  it('should zoom desktop, tablet and kiosk screens up to 768 px high', () => {
    expect(shouldZoom('desktop', 768)).toBe(true);
    expect(shouldZoom('tablet', 700)).toBe(true);
    expect(shouldZoom('kiosk', 768)).toBe(true);
  });

  it('should not zoom taller screens', () => {
    expect(shouldZoom('desktop', 769)).toBe(false);
    expect(shouldZoom('kiosk', 1080)).toBe(false);
  });

  it('should never zoom phones (WCAG resize text and reflow)', () => {
    expect(shouldZoom('mobile', 667)).toBe(false);
    expect(shouldZoom('mobile', 320)).toBe(false);
  });
});

describe('pageType', () => {
  it.each([
    ['/appointments/k', 'confirmation'],
    ['/appointments/pending/k', 'confirmation'],
    ['/booking-requests/k', 'confirmation'],
    ['/unsubscribe', 'confirmation'],
    ['/authentication', 'confirmation'],
    ['/a/k', 'confirmation'],
    ['/iframe/a/k', 'confirmation'],
    ['/clinic/appointments/k', 'confirmation'],
    ['/check-in', 'check-in'],
    ['/iframe/check-in', 'check-in'],
    ['/', 'default'],
    ['/about', 'default'],
    ['/advanced-booking/appointments', 'default'],
    ['/br/k', 'default'],
  ])('should type %s as %s', (path, type) => {
    expect(pageType(path)).toBe(type);
  });

  it('should pick the tablet header only on default pages', () => {
    expect(headerImageFor('default', 'tablet')).toBe('header_tablet');
    expect(headerImageFor('confirmation', 'tablet')).toBe('confirmation_header');
    expect(headerImageFor('check-in', 'kiosk')).toBe('check_in_header');
    expect(headerImageFor('default', 'desktop')).toBe('header');
  });
});

describe('safeInternalPath', () => {
  it.each([
    ['/about', '/about'],
    ['/iframe/contact?x=1', '/iframe/contact?x=1'],
    ['//evil.example', null],
    ['/\\evil.example', null],
    ['/a\tb', null],
    ['https://evil.example', null],
    ['about', null],
    [null, null],
  ])('should treat %j as %j', (input, expected) => {
    expect(safeInternalPath(input)).toBe(expected);
  });
});

describe('scrubUrl (error reports)', () => {
  it.each([
    ['https://portal.example/appointments/S3CR3T/result?dateOfBirth=1990-01-01', 'https://portal.example/appointments/[key]/result'],
    ['/appointments/pending/S3CR3T', '/appointments/pending/[key]'],
    ['/iframe/a/S3CR3T#top', '/iframe/a/[key]'],
    ['/north/booking-requests/S3CR3T/upload', '/north/booking-requests/[key]/upload'],
    ['/br/S3CR3T', '/br/[key]'],
    ['/authentication?returnUrl=%2Fa%2FS3CR3T&dateOfBirth=1990-01-01', '/authentication'],
    ['/about', '/about'],
  ])('should scrub %s', (input, expected) => {
    expect(scrubUrl(input)).toBe(expected);
    expect(scrubUrl(input)).not.toContain('S3CR3T');
  });
});

describe('theme contrast', () => {
  it('should compute WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 0);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 1);
  });

  it('should keep readable provider colours and replace unreadable ones', () => {
    expect(readableColor('#0f5d8c', '#ffffff')).toBe('#0f5d8c');
    expect(readableColor('#f5f5f5', '#ffffff')).toBe('#000000');
    expect(readableColor('#222222', '#0b3a57')).toBe('#ffffff');
    expect(readableColor('#abc', '#fff')).toBe('#000000');
  });
});

describe('kiosk paths', () => {
  it('knows the kiosk home and the appointment kiosk page as kiosk mode, and nothing else', () => {
    for (const path of [
      '/kiosk',
      '/kiosk/',
      '/iframe/kiosk',
      '/appointments/DQZGrZ3wpC5qCgHhYxQeMw/kiosk',
      '/parramatta/appointments/abc/kiosk/',
    ])
      expect(isKioskPath(path), path).toBe(true);
    for (const path of ['/', '/kiosks', '/check-in', '/appointments/abc', '/appointments/abc/kiosk/more', '/staff/kiosks', '/about/kiosk'])
      expect(isKioskPath(path), path).toBe(false);
  });
});
