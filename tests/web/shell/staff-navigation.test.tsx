import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SIGNED_IN_MARKER } from '../../../src-web/stores/staff-store';
import { json } from '../helpers/api-server';
import { renderApp, renderPageAt } from '../helpers/render-app';
import { ADMIN_TOOL_NAMES, REFERRER_USER, STAFF_IDENTITY_APP, STAFF_USER } from '../helpers/staff-users';
import { testConfig } from '../helpers/test-config';

// The signed-in staff member in the navigation (docs/identity.md#the-browser).

const STAFF = STAFF_USER;
const REFERRER = REFERRER_USER;
/** The application config with a staff identity provider, as the server sends it when one is configured. */
const WITH_IDENTITY = testConfig({ app: STAFF_IDENTITY_APP });
const phone = { width: 390, height: 844 };

describe('desktop navigation with staff sign-in', () => {
  it('should offer a sign-in button instead of the admin link when the portal signs staff in itself', async () => {
    await renderPageAt('/about', { config: WITH_IDENTITY });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('button', { name: 'Staff login' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Staff login' })).toBeNull();
  });

  it('should show the organisation and the username with a menu holding the admin link (for an admin) and logout', async () => {
    await renderPageAt('/about', { staffUser: { ...STAFF, roles: ['admin'] }, config: WITH_IDENTITY });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const button = await within(nav).findByRole('button', { name: `Account: ${STAFF.username}` });
    expect(within(nav).getByText('Harbour & Range Radiology')).toBeTruthy();
    expect(within(nav).queryByRole('button', { name: 'Staff login' })).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(within(nav).getByRole('link', { name: 'Admin panel' }).getAttribute('href')).toBe('https://admin.harbourrange.example/login');
    // Escape closes the menu and gives the focus back to its button.
    fireEvent.keyDown(button, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('should link kiosk administrators (and only them) to the staff kiosk page', async () => {
    await renderPageAt('/about', { staffUser: { ...STAFF, roles: ['kioskAdmin'] }, config: WITH_IDENTITY });
    fireEvent.click(await screen.findByRole('button', { name: `Account: ${STAFF.username}` }));
    expect(screen.getByRole('link', { name: 'Lobby kiosks' }).getAttribute('href')).toBe('/staff/kiosks');
  });

  it('should not link staff without the kiosk administrator role to the kiosk page', async () => {
    await renderPageAt('/about', { staffUser: STAFF, config: WITH_IDENTITY });
    fireEvent.click(await screen.findByRole('button', { name: `Account: ${STAFF.username}` }));
    expect(screen.queryByRole('link', { name: 'Lobby kiosks' })).toBeNull();
  });

  // Each role's menu (docs/rules/staff-access.md#staff-home): what the server would admit, and nothing else.
  it.each([
    [
      ['staff'],
      [
        'Staff home',
        'Book for a patient',
        'Callback requests',
        'Confirmations',
        'Booking requests',
        'Screening reviews',
        'E-mail preview',
        'Referrer feedback',
      ],
    ],
    [['kioskAdmin'], ['Staff home', 'Lobby kiosks']],
    [['admin'], ['Staff home', ...ADMIN_TOOL_NAMES]],
    [['referrer'], []],
  ] as const)('should give the roles %j exactly the tools %j in the account menu', async (roles, names) => {
    const config = testConfig({ app: { ...WITH_IDENTITY.app, referrerReportQualityFeedbackEnabled: true } });
    await renderPageAt('/about', { staffUser: { ...STAFF, roles: [...roles] }, config });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(await within(nav).findByRole('button', { name: `Account: ${STAFF.username}` }));
    const menu = within(nav).getAllByRole('list').at(-1)!;
    const links = within(menu)
      .queryAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual(names);
    expect(within(menu).getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('should give a referrer Reports and FAQ in the header itself, and no staff tool', async () => {
    const config = testConfig({ app: { ...WITH_IDENTITY.app, referrerReportQualityFeedbackEnabled: true } });
    await renderPageAt('/about', { staffUser: REFERRER, config });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect((await within(nav).findByRole('link', { name: 'Reports' })).getAttribute('href')).toBe('/referrer-access');
    expect(within(nav).getByRole('link', { name: 'FAQ' }).getAttribute('href')).toBe('/referrer/report-feedback/faq');
    expect(within(nav).queryByRole('link', { name: 'Staff home' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Admin panel' })).toBeNull();
  });

  it('should leave referrer feedback out of the menu where the provider has it switched off', async () => {
    const config = testConfig({ app: { ...WITH_IDENTITY.app, referrerReportQualityFeedbackEnabled: false } });
    await renderPageAt('/about', { staffUser: STAFF, config });
    fireEvent.click(await screen.findByRole('button', { name: `Account: ${STAFF.username}` }));
    expect(screen.getByRole('link', { name: 'E-mail preview' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Referrer feedback' })).toBeNull();
  });

  it('should name the current doctor when there is no organisation', async () => {
    await renderPageAt('/about', { staffUser: REFERRER });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(await within(nav).findByText('Riley Referrer')).toBeTruthy();
    expect(within(nav).getByRole('button', { name: `Account: ${REFERRER.username}` })).toBeTruthy();
  });

  it('should leave the admin link out when it is disabled, and in kiosk mode', async () => {
    await renderPageAt('/about', { staffUser: STAFF, config: testConfig({ app: { showLinkToAdminPanel: false } }) });
    fireEvent.click(await screen.findByRole('button', { name: `Account: ${STAFF.username}` }));
    expect(screen.queryByRole('link', { name: 'Admin panel' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it('should never show the account menu or the admin link in kiosk mode (the kiosk frame has no navigation)', async () => {
    await renderPageAt('/about?kioskMode=true', { staffUser: STAFF });
    expect(await screen.findByRole('button', { name: 'Start again' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: `Account: ${STAFF.username}` })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Admin panel' })).toBeNull();
  });

  it('should log out: the server session ends, the marker goes, the login comes back', async () => {
    const app = await renderPageAt('/about', {
      staffUser: STAFF,
      routes: { 'POST /api/staff-access/logout': (_request, response) => response.writeHead(204).end() },
    });
    fireEvent.click(await screen.findByRole('button', { name: `Account: ${STAFF.username}` }));
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: `Account: ${STAFF.username}` })).toBeNull());
    expect(app.server.requests.some((request) => request.method === 'POST' && request.url === '/api/staff-access/logout')).toBe(true);
    expect(localStorage.getItem(SIGNED_IN_MARKER)).toBeNull();
    expect(screen.getByRole('link', { name: 'Staff login' })).toBeTruthy();
  });

  it('should forget a staff session the server no longer knows, without asking anyone who never signed in', async () => {
    const gone = await renderApp('/about', {
      routes: { 'GET /api/staff-access/me': (_request, response) => json(response, 401, { code: 'unauthorized', message: 'no session' }) },
    });
    await screen.findByRole('heading', { level: 1 });
    // No marker: the booking home and every page stay free of the call.
    expect(gone.server.requests.some((request) => request.url === '/api/staff-access/me')).toBe(false);
  });
});

describe('mobile navigation with staff sign-in', () => {
  it('should put the sign-in button in the menu, and logout once signed in', async () => {
    await renderPageAt('/about', { viewport: phone, config: WITH_IDENTITY });
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = screen.getByRole('list', { name: 'Site menu' });
    expect(within(menu).getByRole('button', { name: 'Staff login' })).toBeTruthy();
  });

  it('should offer logout to a signed-in staff member', async () => {
    await renderPageAt('/about', { viewport: phone, staffUser: STAFF });
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = screen.getByRole('list', { name: 'Site menu' });
    expect(within(menu).getByRole('button', { name: `Log out (${STAFF.username})` })).toBeTruthy();
    expect(within(menu).queryByRole('link', { name: 'Staff login' })).toBeNull();
    expect((await within(menu).findByRole('link', { name: 'Book for a patient' })).getAttribute('href')).toBe('/?staffBooking=true');
    expect(within(menu).getByRole('link', { name: 'Staff home' }).getAttribute('href')).toBe('/staff');
  });
});
