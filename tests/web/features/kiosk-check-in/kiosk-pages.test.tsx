import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CheckInIdentityResponse } from '@contract/api/kiosks';
import { json, readJsonBody, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
import { CLINIC, found, KEY, summaryToday } from './kiosk-fakes';

// The kiosk pages through the real app (providers, router, lazy pages) against a stand-in API over real HTTP.

interface KioskServer {
  routes: Record<string, RouteHandler>;
  enrolled: boolean;
  bodies: { enroll: unknown[]; identity: unknown[] };
}

function kioskServer(options: { enrolled?: boolean; identity?: CheckInIdentityResponse; revokeOnIdentity?: boolean } = {}): KioskServer {
  const server: KioskServer = { routes: {}, enrolled: options.enrolled ?? false, bodies: { enroll: [], identity: [] } };
  const notEnrolled = { code: 'kiosk_not_enrolled', message: 'This kiosk needs to be enrolled again' };
  server.routes = {
    'GET /api/kiosk/me': (_request, response) => (server.enrolled ? json(response, 200, CLINIC) : json(response, 401, notEnrolled)),
    'POST /api/kiosk/enroll': (request, response) => {
      void readJsonBody(request).then((body) => {
        server.bodies.enroll.push(body);
        if ((body as { code: string }).code === '7KQ3-M9XD') {
          server.enrolled = true;
          json(response, 200, CLINIC);
        } else json(response, 400, { code: 'bad_request', message: 'This enrollment code is not valid.' });
      });
    },
    'POST /api/kiosk/check-in/identity': (request, response) => {
      void readJsonBody(request).then((body) => {
        server.bodies.identity.push(body);
        if (options.revokeOnIdentity) json(response, 401, notEnrolled);
        else json(response, 200, options.identity ?? found());
      });
    },
    'POST /api/patient-access/authenticate': (_request, response) =>
      json(response, 200, { otpRequired: true, otpChannels: ['EMAIL'], roleTranslations: '' }),
    'POST /api/patient-access/otp': (_request, response) => json(response, 200, { resendAfterSeconds: 5, destination: 'a***@example.com' }),
    'POST /api/patient-access/otp/verify': (request, response) => {
      void readJsonBody(request).then((body) =>
        (body as { code: string }).code === '123456'
          ? json(response, 200, { isAuthenticated: true, bookingKey: KEY, type: 'APPOINTMENT', roleTranslations: '' })
          : json(response, 401, { code: 'otp_invalid', message: 'The code is not right.' }),
      );
    },
    [`GET /api/appointments/${KEY}`]: (_request, response) => json(response, 200, summaryToday()),
  };
  return server;
}

const KIOSK_HOME = '/kiosk?kioskMode=true';

async function fillIdentity(lastName: string, [day, month, year]: [string, string, string]) {
  fireEvent.change(await screen.findByLabelText('Last name'), { target: { value: lastName } });
  fireEvent.change(screen.getByLabelText('Day'), { target: { value: day } });
  fireEvent.change(screen.getByLabelText('Month'), { target: { value: month } });
  fireEvent.change(screen.getByLabelText('Year'), { target: { value: year } });
  fireEvent.click(screen.getByRole('button', { name: 'Check in' }));
}

describe('the kiosk home', () => {
  it('enrolls a kiosk that is not enrolled: save disabled while empty, a bad code never sent, then the welcome and the kiosk cookies', async () => {
    const server = kioskServer();
    const written: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    const spy = vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      written.push(value);
      descriptor?.set?.call(document, value);
    });
    await renderApp(KIOSK_HOME, { routes: server.routes });
    const code = await screen.findByLabelText('Enrollment code', {}, { timeout: 10_000 });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);

    fireEvent.change(code, { target: { value: 'ABC' } });
    fireEvent.click(save);
    expect(await screen.findByText(/Enter the 8-character enrollment code/)).toBeTruthy();
    fireEvent.change(code, { target: { value: '7KQ3-M9XI' } });
    fireEvent.click(save);
    expect(server.bodies.enroll).toEqual([]);

    fireEvent.change(code, { target: { value: '7kq3-m9xd' } });
    fireEvent.click(save);
    expect(await screen.findByRole('heading', { name: 'Check in with your name' })).toBeTruthy();
    // The kiosk frame names the clinic beside the provider's logo.
    expect(document.querySelector('.pp-kiosk-clinic')?.textContent).toBe('Parramatta Imaging');
    expect(server.bodies.enroll).toEqual([{ code: '7KQ3-M9XD' }]);
    expect(written).toContain('kioskIdentity=Parramatta%20lobby%201; expires=Tue, 31 Dec 2030 23:59:59 GMT; path=/; SameSite=Lax');
    expect(written).toContain('patientKioskIdentity=Parramatta%20Imaging; expires=Tue, 31 Dec 2030 23:59:59 GMT; path=/; SameSite=Lax');
    spy.mockRestore();
  });

  it('enrolls from the enrollment sheet read by a scanner that types; a code of another shape is never sent', async () => {
    const server = kioskServer();
    await renderApp(KIOSK_HOME, { routes: server.routes });
    expect(await screen.findByRole('button', { name: 'Scan the enrollment sheet' }, { timeout: 10_000 })).toBeTruthy();
    const scan = (text: string) => {
      for (const key of text) fireEvent.keyDown(document.body, { key });
      fireEvent.keyDown(document.body, { key: 'Enter' });
    };
    scan('https://example.com/not-a-code');
    expect(await screen.findByText(/Enter the 8-character enrollment code/)).toBeTruthy();
    expect(server.bodies.enroll).toEqual([]);
    scan('7KQ3-M9XD');
    expect(await screen.findByRole('heading', { name: 'Check in with your name' }, { timeout: 10_000 })).toBeTruthy();
    expect(server.bodies.enroll).toEqual([{ code: '7KQ3-M9XD' }]);
  });

  it('says a refused code is not valid and stays on the enrollment screen', async () => {
    const server = kioskServer();
    await renderApp(KIOSK_HOME, { routes: server.routes });
    fireEvent.change(await screen.findByLabelText('Enrollment code', {}, { timeout: 10_000 }), { target: { value: 'ZZZZ-ZZZZ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/This code is not valid, already used or expired/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /Welcome/ })).toBeNull();
  });

  it('says when nothing matches, without more', async () => {
    const server = kioskServer({ enrolled: true, identity: found({ appointmentBookingKeys: [] }) });
    await renderApp(KIOSK_HOME, { routes: server.routes });
    await fillIdentity('Nobody', ['1', '1', '1950']);
    expect(await screen.findByText(/We could not find an appointment today for these details/)).toBeTruthy();
    expect(server.bodies.identity).toEqual([{ lastName: 'Nobody', dateOfBirth: '1950-01-01' }]);
  });

  it('switches the welcome to Macedonian and back with the language buttons', async () => {
    const server = kioskServer({ enrolled: true });
    const app = await renderApp(KIOSK_HOME, { routes: server.routes });
    fireEvent.click(await screen.findByRole('button', { name: 'Македонски' }, { timeout: 10_000 }));
    expect(await screen.findByRole('heading', { name: 'Пријавете се со вашето име' })).toBeTruthy();
    expect(screen.getByLabelText('Презиме')).toBeTruthy();
    expect(document.documentElement.lang).toBe('mk');
    expect(screen.getByRole('button', { name: 'Македонски' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Англиски (English)' }));
    expect(await screen.findByRole('heading', { name: 'Check in with your name' })).toBeTruthy();
    expect(app.root.i18n.locale.startsWith('en')).toBe(true);
  });

  it('shows the date problem and sends nothing for an impossible date', async () => {
    const server = kioskServer({ enrolled: true });
    await renderApp(KIOSK_HOME, { routes: server.routes });
    await fillIdentity('Lobbyton', ['31', '2', '1979']);
    expect(await screen.findByText('Enter a real date: day, month and a 4-digit year.')).toBeTruthy();
    expect(server.bodies.identity).toEqual([]);
  });

  it('goes back to the enrollment screen, saying so, when the kiosk was revoked', async () => {
    const server = kioskServer({ enrolled: true, revokeOnIdentity: true });
    await renderApp(KIOSK_HOME, { routes: server.routes });
    await fillIdentity('Lobbyton', ['12', '4', '1979']);
    expect(await screen.findByText('This kiosk needs to be enrolled again. Please ask at the desk.')).toBeTruthy();
    expect(screen.getByLabelText('Enrollment code')).toBeTruthy();
  });
});

describe('the kiosk check-in steps', () => {
  it('one booking: the code step (wrong code said), then today’s appointments to confirm', async () => {
    const server = kioskServer({ enrolled: true });
    const app = await renderApp(KIOSK_HOME, { routes: server.routes });
    await fillIdentity('Lobbyton', ['12', '4', '1979']);
    const code = await screen.findByLabelText('6-digit code', {}, { timeout: 10_000 });
    expect(app.router.state.location.search).toBe('?step=verify-otp&kioskMode=true');
    expect(app.router.state.location.pathname + app.router.state.location.search).not.toContain(KEY);
    expect(screen.getByText('We sent a 6-digit code to a***@example.com.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send a new code' }).hasAttribute('disabled')).toBe(true);
    // The kiosk's own frame: no website header, header picture, banner or footer links.
    expect(document.querySelector('.pp-kiosk-bar')).not.toBeNull();
    expect(document.querySelector('.pp-header, .pp-header-image, .pp-banner, footer.pp-footer')).toBeNull();

    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('That code is not right. Please check it and try again.')).toBeTruthy();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Your appointments today' })).toBeTruthy();
    await waitFor(() => expect(app.router.state.location.search).toBe('?step=confirm&kioskMode=true'));
    expect(screen.getAllByText('X-ray chest')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Start again' })).toHaveLength(1);
  });

  it('a visit to /check-in without a check-in under way goes to the kiosk home', async () => {
    const server = kioskServer();
    const app = await renderApp('/check-in?step=confirm&kioskMode=true', { routes: server.routes });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/kiosk'));
    expect(await screen.findByLabelText('Enrollment code', {}, { timeout: 10_000 })).toBeTruthy();
  });
});
