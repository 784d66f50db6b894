import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, readJsonBody, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
import { CLINIC, found, KEY } from './kiosk-fakes';

// Identify by scanning through the real app (docs/rules/kiosk.md#identify-by-scanning): a USB
// scanner types the booking code on the kiosk home, the patient confirms with the date of birth,
// and the one-time code follows as after the name form.

const KIOSK_HOME = '/kiosk?kioskMode=true';
const CODE = `https://portal.example.com/a/${KEY}`;

function kioskServer(identityKeys: string[] = [KEY]) {
  const identity: unknown[] = [];
  const otp: unknown[] = [];
  const routes: Record<string, RouteHandler> = {
    'GET /api/kiosk/me': (_request, response) => json(response, 200, CLINIC),
    'POST /api/kiosk/check-in/identity': (request, response) => {
      void readJsonBody(request).then((body) => {
        identity.push(body);
        json(response, 200, found({ appointmentBookingKeys: identityKeys }));
      });
    },
    'POST /api/patient-access/authenticate': (_request, response) =>
      json(response, 200, { otpRequired: true, otpChannels: ['EMAIL', 'SMS'], roleTranslations: '' }),
    'POST /api/patient-access/otp': (request, response) => {
      void readJsonBody(request).then((body) => {
        otp.push(body);
        json(response, 200, { resendAfterSeconds: 5, destination: '+61 *** *** 678' });
      });
    },
  };
  return { routes, identity, otp };
}

/** What a keyboard-wedge scanner does: the text as fast keys on the page, then Enter. */
function scan(text: string): void {
  for (const key of text) fireEvent.keyDown(document.body, { key });
  fireEvent.keyDown(document.body, { key: 'Enter' });
}

function typeDateOfBirth(day: string, month: string, year: string): void {
  fireEvent.change(screen.getByLabelText('Day'), { target: { value: day } });
  fireEvent.change(screen.getByLabelText('Month'), { target: { value: month } });
  fireEvent.change(screen.getByLabelText('Year'), { target: { value: year } });
}

describe('the kiosk home, scanning a booking code', () => {
  it('a scanned booking code asks the date of birth, then sends the one-time code by SMS', async () => {
    const server = kioskServer();
    const app = await renderApp(KIOSK_HOME, { routes: server.routes });
    expect(await screen.findByRole('button', { name: 'Scan your booking code' }, { timeout: 10_000 })).toBeTruthy();
    scan(`${CODE}`);
    expect(await screen.findByRole('heading', { name: 'Confirm your date of birth' })).toBeTruthy();
    // Nothing of the booking is shown, and nothing was sent yet.
    expect(document.body.textContent).not.toContain(KEY);
    expect(screen.queryByLabelText('Last name')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter your date of birth.')).toBeTruthy();
    expect(server.identity).toEqual([]);

    typeDateOfBirth('12', '4', '1979');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByLabelText('6-digit code', {}, { timeout: 20_000 })).toBeTruthy();
    expect(server.identity).toEqual([{ bookingKey: KEY, dateOfBirth: '1979-04-12' }]);
    expect(server.otp).toEqual([{ channel: 'SMS' }]);
    expect(app.router.state.location.search).toBe('?step=verify-otp&kioskMode=true');
    expect(app.router.state.location.search).not.toContain(KEY);
  });

  it('a foreign code says so and stays; a wrong date of birth says nothing was found; Start again goes back', async () => {
    const server = kioskServer([]);
    await renderApp(KIOSK_HOME, { routes: server.routes });
    await screen.findByRole('button', { name: 'Scan your booking code' }, { timeout: 10_000 });
    scan('WIFI:S:lobby;T:WPA;P:secret;;');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This code is not a booking code. Scan the code from your confirmation, or check in with your name.',
    );
    expect(screen.getByLabelText('Last name')).toBeTruthy();

    scan(CODE);
    await screen.findByRole('heading', { name: 'Confirm your date of birth' });
    typeDateOfBirth('13', '4', '1979');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/We could not find an appointment today for these details/)).toBeTruthy();
    expect(server.identity).toEqual([{ bookingKey: KEY, dateOfBirth: '1979-04-13' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Not your booking? Start again' }));
    expect(await screen.findByLabelText('Last name')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Confirm your date of birth' })).toBeNull());
  });

  it('the camera button says plainly when the kiosk has no camera, and goes back', async () => {
    const server = kioskServer();
    await renderApp(KIOSK_HOME, { routes: server.routes });
    fireEvent.click(await screen.findByRole('button', { name: 'Scan your booking code' }, { timeout: 10_000 }));
    expect((await screen.findByRole('alert')).textContent).toContain('This kiosk has no camera for scanning.');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('button', { name: 'Scan your booking code' })).toBeTruthy();
  });
});
