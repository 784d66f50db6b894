import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hasKioskBridge } from '../../../src-web/platform/kiosk';
import { renderPageAt } from '../helpers/render-app';
import { testConfig } from '../helpers/test-config';

const fixedClock = () => new Date('2031-05-04T10:00:00+10:00');

describe('shell landmarks', () => {
  it('should have a skip link, a header with the main navigation, main and footer', async () => {
    await renderPageAt('/about');
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip.getAttribute('href')).toBe('#main-content');
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(screen.getByRole('main').id).toBe('main-content');
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  });

  it('should move focus to main when the skip link is used', async () => {
    await renderPageAt('/about');
    fireEvent.click(screen.getByRole('link', { name: 'Skip to main content' }));
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });
});

describe('banner', () => {
  const withBanner = (closeBanner: boolean) =>
    testConfig({
      app: {
        bannerEnabled: true,
        bannerHtml: '<p>Our Parramatta clinic is closed on <strong>Friday</strong>.</p><script>window.pwned=1</script>',
      },
      radiology: { closeBanner },
    });

  it('should show the sanitised banner HTML and close it for the session', async () => {
    await renderPageAt('/about', { config: withBanner(true) });
    const banner = await screen.findByRole('region', { name: 'Announcement' });
    expect(await within(banner).findByText('Friday')).toBeTruthy();
    expect(banner.querySelector('script')).toBeNull();
    fireEvent.click(within(banner).getByRole('button', { name: 'Close announcement' }));
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
    expect(sessionStorage.getItem('portal.bannerClosed')).toBe('true');
    // The server's first paint of the next page reads it (src-server/platform/first-paint.ts).
    expect(document.cookie).toContain('portal_banner_closed=1');
  });

  it('should stay closed in a new tab of the same browser session (the cookie)', async () => {
    document.cookie = 'portal_banner_closed=1; Path=/';
    await renderPageAt('/about', { config: withBanner(true) });
    await screen.findByRole('main');
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
  });

  it('should offer no close button unless closeBanner is on', async () => {
    await renderPageAt('/about', { config: withBanner(false) });
    const banner = await screen.findByRole('region', { name: 'Announcement' });
    expect(within(banner).queryByRole('button')).toBeNull();
  });

  it('should not show a disabled banner', async () => {
    await renderPageAt('/about', { config: testConfig({ app: { bannerEnabled: false, bannerHtml: '<p>Old news</p>' } }) });
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
  });
});

describe('desktop navigation', () => {
  it('should link the logo home and show the staff login icon and header message', async () => {
    await renderPageAt('/about', { config: testConfig({ app: { headerMessage: 'Open 7 days' } }) });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Harbour & Range Radiology home page' }).getAttribute('href')).toBe('/');
    expect(within(nav).getByText('Open 7 days')).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Staff login' }).getAttribute('href')).toBe('https://admin.harbourrange.example/login');
  });

  it('should hide the staff login when the admin link is disabled', async () => {
    await renderPageAt('/about', { config: testConfig({ app: { showLinkToAdminPanel: false } }) });
    expect(screen.queryByRole('link', { name: 'Staff login' })).toBeNull();
  });

  it('should show the kiosk frame in kiosk mode: logo, language, help line and Start again, and no link at all', async () => {
    await renderPageAt('/about?kioskMode=true');
    expect(await screen.findByRole('button', { name: 'Start again' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Harbour & Range Radiology' })).toBeTruthy();
    expect(screen.getByText('Need help? Please ask at the front desk.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('link', { name: 'Staff login' })).toBeNull();
    expect(document.querySelector('.pp-header, .pp-banner, .pp-environment, footer.pp-footer')).toBeNull();
    expect(screen.queryAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([]);
    expect(sessionStorage.getItem('portal.kioskMode')).toBe('true');
  });

  it('should treat the kiosk app bridge as kiosk mode', async () => {
    window.kiosk = { getAppInfo: async () => ({ ok: true, value: { version: '1.0.0', platform: 'linux' } }) };
    try {
      expect(hasKioskBridge(window)).toBe(true);
      const app = await renderPageAt('/about');
      expect(app.root.ui.device).toBe('kiosk');
    } finally {
      delete window.kiosk;
    }
  });

  it('should link the logo to advanced booking on advanced booking pages', async () => {
    await renderPageAt('/advanced-booking');
    expect(screen.getByRole('link', { name: 'Harbour & Range Radiology home page' }).getAttribute('href')).toBe('/advanced-booking');
  });
});

describe('mobile navigation', () => {
  const phone = { width: 375, height: 667 };

  it('should toggle a menu with aria-expanded and aria-controls', async () => {
    await renderPageAt('/about', { viewport: phone });
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(menu?.hidden).toBe(true);

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(menu?.hidden).toBe(false);
    const links = within(screen.getByRole('list', { name: 'Site menu' })).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Staff login', 'https://admin.harbourrange.example/login'],
      ['Home', '/'],
      ['About', '/about'],
      ['Contact', '/contact'],
      ['Terms and conditions', '/terms'],
      ['Privacy policy', '/privacy'],
    ]);

    fireEvent.keyDown(button, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('should use configured external URLs, opening in the same tab', async () => {
    const config = testConfig({
      app: { navigation: { ...testConfig().app.navigation, about: 'https://harbourrange.example/about-us', terms: 'javascript:alert(1)' } },
    });
    await renderPageAt('/contact', { viewport: phone, config });
    await screen.findByRole('heading', { level: 3, name: 'Parramatta' });
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const about = screen.getByRole('link', { name: 'About' });
    expect(about.getAttribute('href')).toBe('https://harbourrange.example/about-us');
    expect(about.getAttribute('rel')).toBe('noopener');
    expect(about.getAttribute('target')).toBeNull();
    // An unsafe configured URL is ignored: the internal page is used.
    expect(screen.getByRole('link', { name: 'Terms and conditions' }).getAttribute('href')).toBe('/terms');
  });

  it('should close the menu after navigating', async () => {
    const app = await renderPageAt('/about', { viewport: phone });
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    fireEvent.click(screen.getByRole('link', { name: 'Contact' }));
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });
    expect(app.router.state.location.pathname).toBe('/contact');
    expect(screen.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
    await screen.findByRole('heading', { level: 3, name: 'Parramatta' });
  });

  it('should leave the login out of the menu when the admin link is disabled', async () => {
    await renderPageAt('/about', { viewport: phone, config: testConfig({ app: { showLinkToAdminPanel: false } }) });
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(within(screen.getByRole('list', { name: 'Site menu' })).queryByRole('link', { name: 'Staff login' })).toBeNull();
  });

  it('should keep the kiosk layout (no staff login) on a kiosk whatever its width', async () => {
    const app = await renderPageAt('/about?kioskMode=true', { viewport: phone });
    expect(app.root.ui.device).toBe('kiosk');
    expect(screen.queryByRole('link', { name: 'Staff login' })).toBeNull();
  });

  it('should hide the footer on phones and not zoom them', async () => {
    await renderPageAt('/about', { viewport: phone });
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(document.documentElement.classList.contains('pp-zoomed')).toBe(false);
  });
});

describe('footer', () => {
  it('should list the links, the copyright with long name and year, and the version with its hash', async () => {
    await renderPageAt('/about', { clock: fixedClock });
    const footer = screen.getByRole('contentinfo');
    const links = within(within(footer).getByRole('navigation', { name: 'Footer' })).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/'],
      ['Harbour & Range Radiology website', 'https://harbourrange.example/'],
      ['About', '/about'],
      ['Contact', '/contact'],
      ['Terms and conditions', '/terms'],
      ['Privacy policy', '/privacy'],
    ]);
    expect(within(footer).getByText('© 2031 Harbour & Range Radiology Pty Ltd')).toBeTruthy();
    const version = within(footer).getByRole('button', { name: 'Version 1.4.2' });
    const tooltip = document.getElementById(version.getAttribute('aria-describedby') ?? '');
    expect(tooltip?.textContent).toBe('1.4.2 (a1b2c3d)');
    expect(tooltip?.hidden).toBe(true);
    fireEvent.focus(version);
    expect(tooltip?.hidden).toBe(false);
    fireEvent.keyDown(version, { key: 'Escape' });
    expect(tooltip?.hidden).toBe(true);
    expect(within(footer).getByRole('img', { name: 'Harbour & Range Radiology logo' }).getAttribute('src')).toBe(
      '/api/assets/application/branding_logo',
    );
  });

  it('should leave out the version and branding logo when they are off', async () => {
    await renderPageAt('/about', {
      config: testConfig({ app: { versionOnPatientPortalEnabled: false }, radiology: { showBrandingLogo: false } }),
    });
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).queryByRole('button')).toBeNull();
    expect(within(footer).queryByRole('img')).toBeNull();
  });

  it('should show the sanitised custom footer instead when configured', async () => {
    const config = testConfig({
      radiology: { showCustomHeaderAndFooter: true, customFooter: '<p>ABN 12 345 678 901</p><img src=x onerror="window.pwned=1">' },
    });
    await renderPageAt('/about', { config });
    const footer = screen.getByRole('contentinfo');
    expect(await within(footer).findByText('ABN 12 345 678 901')).toBeTruthy();
    expect(footer.querySelector('img')?.getAttribute('onerror')).toBeFalsy();
    expect(within(footer).queryByText(/©/)).toBeNull();
  });

  it('should not show a footer on advanced booking pages', async () => {
    await renderPageAt('/advanced-booking');
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });
});

describe('environment banner', () => {
  it('should list the profiles in the configured corner with the read-only notice', async () => {
    const config = testConfig({
      environment: { production: false, profiles: ['staging', 'demo'], readOnly: true, bannerCorner: 'bottom-right' },
    });
    await renderPageAt('/about', { config });
    const banner = screen.getByRole('complementary', { name: 'Environment' });
    expect(banner.className).toContain('pp-environment-bottom-right');
    expect(within(banner).getByText('Environment: staging, demo')).toBeTruthy();
    expect(within(banner).getByText('Read-only access')).toBeTruthy();
  });

  it('should leave out the read-only notice when access is not read-only', async () => {
    await renderPageAt('/about', { config: testConfig({ environment: { production: false, profiles: ['uat'] } }) });
    const banner = screen.getByRole('complementary', { name: 'Environment' });
    expect(banner.className).toContain('pp-environment-top-left');
    expect(within(banner).queryByText('Read-only access')).toBeNull();
  });

  it('should not show on production', async () => {
    await renderPageAt('/about', { config: testConfig({ environment: { production: true, profiles: ['prod'], readOnly: true } }) });
    expect(screen.queryByRole('complementary', { name: 'Environment' })).toBeNull();
  });
});

describe('header image and background', () => {
  const headerImage = () => document.querySelector('.pp-header-image img');

  it.each([
    ['/appointments/k3y', 'confirmation_header'],
    ['/a/k3y', 'confirmation_header'],
    ['/booking-requests/k3y', 'confirmation_header'],
    ['/north-shore/appointments/k3y', 'confirmation_header'],
    ['/authentication', 'confirmation_header'],
    // /check-in without a kiosk check-in under way goes to /kiosk; its header is checked on a real
    // step in tests/web/features/kiosk-check-in/kiosk-pages.test.tsx.
    ['/about', 'header'],
    ['/', 'header'],
  ])('should use the right header image on %s', async (url, image) => {
    await renderPageAt(url);
    expect(headerImage()?.getAttribute('src')).toBe(`/api/assets/application/${image}`);
    expect(headerImage()?.getAttribute('alt')).toBe('');
  });

  it('should use the tablet header on tablets', async () => {
    Object.defineProperty(window.navigator, 'maxTouchPoints', { value: 5, configurable: true });
    try {
      const app = await renderPageAt('/about', { viewport: { width: 1024, height: 1366 } });
      expect(app.root.ui.device).toBe('tablet');
      expect(headerImage()?.getAttribute('src')).toBe('/api/assets/application/header_tablet');
    } finally {
      Object.defineProperty(window.navigator, 'maxTouchPoints', { value: 0, configurable: true });
    }
  });

  it('should hide a header image the provider does not have', async () => {
    await renderPageAt('/about');
    const image = headerImage();
    if (!image) throw new Error('no header image');
    fireEvent.error(image);
    expect(headerImage()).toBeNull();
  });

  it('should apply the patient-portal background on non-mobile devices when enabled', async () => {
    await renderPageAt('/about', { config: testConfig({ app: { patientPortalBackgroundEnabled: true } }) });
    // The frame sets the class in an effect after its render: on a loaded machine that is a moment later.
    await waitFor(() => expect(document.body.classList.contains('pp-has-background')).toBe(true));
  });

  it('should not apply the background on phones', async () => {
    await renderPageAt('/about', {
      viewport: { width: 375, height: 667 },
      config: testConfig({ app: { patientPortalBackgroundEnabled: true } }),
    });
    expect(document.body.classList.contains('pp-has-background')).toBe(false);
  });

  it('should zoom short desktop screens to 75% and leave tall ones alone', async () => {
    const app = await renderPageAt('/about', { viewport: { width: 1366, height: 768 } });
    // The class is set by an effect, which a loaded machine may run after the heading shows.
    await waitFor(() => expect(document.documentElement.classList.contains('pp-zoomed')).toBe(true));
    app.root.ui.setViewport(1920, 1080);
    await waitFor(() => expect(document.documentElement.classList.contains('pp-zoomed')).toBe(false));
  });
});

describe('theme', () => {
  it('should expose the provider theme as CSS variables, made readable when it is not', async () => {
    await renderPageAt('/about', { config: testConfig({ theme: { colorFooterBackground: '#0b3a57', colorFooterText: '#1a1a1a' } }) });
    const style = document.documentElement.style;
    // Set by an effect, which a loaded machine may run after the heading shows. Dark text on a
    // dark footer fails AA, so the shell uses white instead.
    await waitFor(() => expect(style.getPropertyValue('--pp-footer-text')).toBe('#ffffff'));
    expect(style.getPropertyValue('--pp-primary')).toBe('#0f5d8c');
  });
});
