import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StaffUser } from '@contract/api/staff-access';
import { renderApp, type RenderedApp } from '../../helpers/render-app';
import { testConfig } from '../../helpers/test-config';
import { answer, BOOKING_KEY, CODE, DATE_OF_BIRTH, signInServer, type SignInServerOptions } from './patient-access-fixtures';

const TODAY = new Date(2026, 10, 23, 10, 0, 0);
const SIGN_IN = `/authentication?returnUrl=%2Fappointments%2F${BOOKING_KEY}&bookingKey=${BOOKING_KEY}&type=APPOINTMENT`;

async function open(url = SIGN_IN, server: SignInServerOptions = {}, config = testConfig(), staffUser?: StaffUser) {
  const fake = signInServer(server);
  const app = await renderApp(url, { routes: fake.routes, clock: () => TODAY, config, ...(staffUser === undefined ? {} : { staffUser }) });
  return { app, fake };
}

const dateOfBirth = () => screen.findByLabelText('Date of birth');
const contactNumber = () => screen.getByLabelText('Contact number (optional)');
const continueButton = () => screen.getByRole('button', { name: 'Continue' });
const location = (app: RenderedApp) => `${app.router.state.location.pathname}${app.router.state.location.search}`;

function describedText(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');
}

async function enterDetails(dob: string, contact = '') {
  fireEvent.change(await dateOfBirth(), { target: { value: dob } });
  if (contact) fireEvent.change(contactNumber(), { target: { value: contact } });
  fireEvent.click(continueButton());
}

afterEach(() => {
  Object.defineProperty(window.navigator, 'cookieEnabled', { value: true, configurable: true });
});

describe('/authentication page: the form', () => {
  it('should show labelled fields: a date input no later than today and a numeric contact number', async () => {
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Confirm your identity' })).toBeTruthy();
    const dob = await dateOfBirth();
    expect(dob.getAttribute('type')).toBe('date');
    expect(dob.getAttribute('max')).toBe('2026-11-23');
    expect(dob.getAttribute('aria-required')).toBe('true');
    expect(contactNumber().getAttribute('inputmode')).toBe('numeric');
    expect(describedText(contactNumber())).toContain('Digits only, at most 10');
    expect(screen.getByText('To protect your information, please confirm your date of birth.')).toBeTruthy();
  });

  it('should show the problems tied to their fields, focus the first one and send nothing', async () => {
    const { fake } = await open();
    await dateOfBirth();
    fireEvent.change(contactNumber(), { target: { value: '04915700061' } });
    fireEvent.click(continueButton());

    const dob = await dateOfBirth();
    await waitFor(() => expect(document.activeElement).toBe(dob));
    expect(dob.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(dob)).toBe('Please enter a date of birth.');
    expect(describedText(contactNumber())).toContain('Please enter a valid contact number.');
    expect(fake.bodies).toEqual([]);

    fireEvent.change(dob, { target: { value: DATE_OF_BIRTH } });
    fireEvent.click(continueButton());
    await waitFor(() => expect(document.activeElement).toBe(contactNumber()));
    expect(fake.bodies).toEqual([]);
  });

  it('should refuse a date of birth in the future', async () => {
    const { fake } = await open();
    await enterDetails('2026-11-24');
    expect(await screen.findByText('The date of birth cannot be in the future.')).toBeTruthy();
    expect(fake.bodies).toEqual([]);
  });

  it('should start with the date of birth from the link', async () => {
    await open(`${SIGN_IN}&dateOfBirth=${DATE_OF_BIRTH}`);
    expect(((await dateOfBirth()) as HTMLInputElement).value).toBe(DATE_OF_BIRTH);
  });

  it('should say the link is incomplete when it names no booking', async () => {
    await open('/authentication');
    expect(
      await screen.findByText('This sign-in link is incomplete. Please open the link from your confirmation email again.'),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Date of birth')).toBeNull();
  });
});

describe('/authentication page: signing in', () => {
  it('should sign in with date of birth and a code, then open the return URL', async () => {
    const { app, fake } = await open(SIGN_IN, { resendAfterSeconds: 5 });
    await enterDetails(DATE_OF_BIRTH, '0491570006');

    const code = await screen.findByLabelText('One-time code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(screen.getByText('We sent a 6-digit code to l***@example.com. It is valid for 10 minutes.')).toBeTruthy();
    const resend = screen.getByRole('button', { name: 'Send a new code' });
    expect(resend.hasAttribute('disabled')).toBe(true);
    expect(describedText(resend)).toBe('You can ask for a new code in 5 seconds.');

    fireEvent.change(code, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code has exactly 6 digits.')).toBeTruthy();
    expect(fake.bodies.map((entry) => entry.path)).toEqual(['authenticate', 'otp']);

    fireEvent.change(code, { target: { value: CODE } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(location(app)).toBe(`/appointments/${BOOKING_KEY}`));
    expect(app.root.session.isSignedInTo(BOOKING_KEY, 'APPOINTMENT')).toBe(true);
    expect(fake.bodies[0]?.body).toEqual({
      bookingKey: BOOKING_KEY,
      type: 'APPOINTMENT',
      dateOfBirth: DATE_OF_BIRTH,
      contactNumber: '0491570006',
    });
  });

  it('should count the resend wait down and then allow a new code', async () => {
    const { fake } = await open(SIGN_IN, { resendAfterSeconds: 2 });
    await enterDetails(DATE_OF_BIRTH);
    const resend = await screen.findByRole('button', { name: 'Send a new code' });
    expect(screen.getByText('You can ask for a new code in 2 seconds.')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('You can ask for a new code in 1 second.')).toBeTruthy());
    await waitFor(() => expect(resend.hasAttribute('disabled')).toBe(false));
    fireEvent.click(resend);
    await waitFor(() => expect(fake.bodies.map((entry) => entry.path)).toEqual(['authenticate', 'otp', 'otp']));
  });

  it('should offer the channel choice when e-mail and SMS are both possible', async () => {
    const { fake } = await open(SIGN_IN, { otpChannels: ['EMAIL', 'SMS'] });
    await enterDetails(DATE_OF_BIRTH);
    const group = await screen.findByRole('group', { name: 'Where should we send your one-time code?' });
    expect(group).toBeTruthy();
    const email = screen.getByRole('radio', { name: 'Email' });
    await waitFor(() => expect(document.activeElement).toBe(email));
    fireEvent.click(screen.getByRole('radio', { name: 'Text message (SMS)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('We sent a 6-digit code to *******006. It is valid for 10 minutes.')).toBeTruthy();
    expect(fake.bodies[1]?.body).toEqual({ channel: 'SMS' });
  });

  it('should keep the form with the error tied to the date of birth after a wrong answer', async () => {
    const { app } = await open();
    await enterDetails('1991-03-15');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The details you entered do not match our records. Please check them and try again.');
    const dob = await dateOfBirth();
    expect(describedText(dob)).toContain('do not match our records');
    await waitFor(() => expect(document.activeElement).toBe(dob));
    expect(location(app)).toBe(SIGN_IN);
  });

  it('should show the OTP error on a wrong code and keep the code step', async () => {
    await open();
    await enterDetails(DATE_OF_BIRTH);
    const code = await screen.findByLabelText('One-time code');
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not right. Please check it and try again.');
    expect((screen.getByLabelText('One-time code') as HTMLInputElement).value).toBe('');
  });

  it('should ask to wait N seconds, keeping the form, when answers come too fast from this connection', async () => {
    const { app, fake } = await open(SIGN_IN, {
      answers: {
        authenticate: answer(429, {
          code: 'too_many_requests',
          message: 'Please wait 7 seconds and try again.',
          details: { retryAfterSeconds: 7 },
        }),
      },
    });
    await enterDetails(DATE_OF_BIRTH);
    expect((await screen.findByRole('alert')).textContent).toBe('Please wait 7 seconds and try again.');
    expect(location(app)).toBe(SIGN_IN);
    // Still a form to try again with, not a dead end.
    expect(((await dateOfBirth()) as HTMLInputElement).value).toBe(DATE_OF_BIRTH);
    expect(continueButton().hasAttribute('disabled')).toBe(false);
    fireEvent.click(continueButton());
    await waitFor(() => expect(fake.bodies.map((entry) => entry.path)).toEqual(['authenticate', 'authenticate']));
  });

  it('should ask for the e-mailed code for a booking request when the server says so', async () => {
    const url = `/authentication?returnUrl=%2Fbooking-requests%2F${BOOKING_KEY}&bookingKey=${BOOKING_KEY}&type=BOOKING_REQUEST`;
    const { app, fake } = await open(url);
    await enterDetails(DATE_OF_BIRTH);
    const code = await screen.findByLabelText('One-time code');
    expect(fake.bodies[0]?.body).toMatchObject({ type: 'BOOKING_REQUEST' });
    fireEvent.change(code, { target: { value: CODE } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(location(app)).toBe(`/booking-requests/${BOOKING_KEY}`));
    expect(app.root.session.isSignedInTo(BOOKING_KEY, 'BOOKING_REQUEST')).toBe(true);
  });

  it('should open /deny with the max-attempts message after too many wrong dates of birth', async () => {
    const { app } = await open(SIGN_IN, { maxFailures: 0 });
    await enterDetails('1991-03-15');
    await waitFor(() => expect(location(app)).toBe('/deny?maxAttempts=max_attempts_reached'));
    expect(
      await screen.findByText(
        'You have reached the maximum number of attempts. For your security, access is blocked. Please contact the clinic.',
      ),
    ).toBeTruthy();
  });

  it('should go straight to the return URL when this browser is already signed in', async () => {
    const { app } = await open(SIGN_IN, { signedIn: true });
    await waitFor(() => expect(location(app)).toBe(`/appointments/${BOOKING_KEY}`));
  });

  it('should show the authenticating loader while the answer is on its way', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await open(SIGN_IN, {
      answers: {
        authenticate: (response) =>
          void held.then(() => answer(401, { code: 'authentication_failed', message: 'The details do not match our records.' })(response)),
      },
    });
    await enterDetails(DATE_OF_BIRTH);
    expect((await screen.findByRole('status')).textContent).toBe('Authenticating…');
    await act(async () => release());
    await screen.findByRole('alert');
    expect(screen.queryByText('Authenticating…')).toBeNull();
  });
});

describe('/authentication page: variants', () => {
  it("should use the 'accessing results of others' wording and add shared=true to the return URL", async () => {
    const { app, fake } = await open(`${SIGN_IN}&shared=true`, { otpRequired: false });
    expect(await screen.findByRole('heading', { level: 1, name: 'Open results shared with you' })).toBeTruthy();
    expect(await screen.findByText(/You are accessing results of others/)).toBeTruthy();
    fireEvent.change(await screen.findByLabelText('Their date of birth'), { target: { value: DATE_OF_BIRTH } });
    fireEvent.click(continueButton());
    await waitFor(() => expect(location(app)).toBe(`/appointments/${BOOKING_KEY}?shared=true`));
    expect(fake.bodies[0]?.body).toMatchObject({ shared: true });
  });

  it('should speak of results for a result sign-in, prefill the date of birth of the patient portal link and return there', async () => {
    const portal = `/appointments/${BOOKING_KEY}/result/patient?dateOfBirth=${DATE_OF_BIRTH}&otpType=EMAIL`;
    const url = `/authentication?returnUrl=${encodeURIComponent(portal)}&bookingKey=${BOOKING_KEY}&type=PATIENT_PORTAL&dateOfBirth=${DATE_OF_BIRTH}&otpType=EMAIL`;
    const { app, fake } = await open(url, { otpRequired: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to see your results' })).toBeTruthy();
    expect(await screen.findByText(/To protect your results/)).toBeTruthy();
    expect(((await dateOfBirth()) as HTMLInputElement).value).toBe(DATE_OF_BIRTH);
    fireEvent.click(continueButton());
    fireEvent.change(await screen.findByLabelText('One-time code'), { target: { value: CODE } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(location(app)).toBe(portal));
    expect(fake.bodies[0]?.body).toMatchObject({ type: 'PATIENT_PORTAL', dateOfBirth: DATE_OF_BIRTH });
  });

  it("should keep the 'accessing results of others' wording for shared results", async () => {
    const result = `/appointments/${BOOKING_KEY}/result`;
    await open(`/authentication?returnUrl=${encodeURIComponent(result)}&type=APPOINTMENT_RESULTS&shared=true`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Open results shared with you' })).toBeTruthy();
    expect(await screen.findByText(/You are accessing results of others/)).toBeTruthy();
  });

  it('should keep the patient wording for a patient who adds staffBooking=true', async () => {
    await open(`${SIGN_IN}&staffBooking=true`, { otpRequired: true });
    expect(await dateOfBirth()).toBeTruthy();
    expect(screen.queryByLabelText("Patient's date of birth")).toBeNull();
  });

  it('should speak of the patient when staff sign in for them (staffBooking=true)', async () => {
    const staff: StaffUser = {
      username: 'sam.staff@demo-radiology.example',
      organization: null,
      currentDoctor: null,
      userId: 's1',
      roles: ['staff'],
    };
    await open(`${SIGN_IN}&staffBooking=true`, { otpRequired: true }, testConfig(), staff);
    expect(await screen.findByRole('heading', { level: 1, name: "Confirm the patient's identity" })).toBeTruthy();
    expect(await screen.findByText("To open the patient's booking, enter the patient's date of birth.")).toBeTruthy();
    fireEvent.change(await screen.findByLabelText("Patient's date of birth"), { target: { value: DATE_OF_BIRTH } });
    fireEvent.click(continueButton());
    expect(await screen.findByText('We sent a 6-digit code to the patient at l***@example.com. It is valid for 10 minutes.')).toBeTruthy();
  });

  it('should show the cookies banner and the cookies error when cookies are disabled', async () => {
    Object.defineProperty(window.navigator, 'cookieEnabled', { value: false, configurable: true });
    const { fake } = await open();
    expect(
      await screen.findByText('Cookies are disabled in your browser. Signing in needs cookies: please allow them for this site.'),
    ).toBeTruthy();
    await enterDetails(DATE_OF_BIRTH);
    expect(
      await screen.findByText(
        'Your browser is blocking cookies, so we cannot keep you signed in. Please allow cookies for this site and try again.',
      ),
    ).toBeTruthy();
    expect(fake.bodies).toEqual([]);
  });

  it('should stay inside /iframe: the return URL and the deny page', async () => {
    const { app } = await open(`/iframe/authentication?bookingKey=${BOOKING_KEY}`, { otpRequired: false });
    await enterDetails(DATE_OF_BIRTH);
    await waitFor(() => expect(location(app)).toBe(`/iframe/appointments/${BOOKING_KEY}`));

    app.unmount();
    const locked = await open(`/iframe/authentication?bookingKey=${BOOKING_KEY}`, { maxFailures: 0 });
    await enterDetails('1991-03-15');
    await waitFor(() => expect(location(locked.app)).toBe('/iframe/deny?maxAttempts=max_attempts_reached'));
  });

  it('should read in Macedonian', async () => {
    await open(SIGN_IN, {}, testConfig({ app: { locale: 'mk' } }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Потврдете го вашиот идентитет' })).toBeTruthy();
    expect(await screen.findByLabelText('Датум на раѓање')).toBeTruthy();
  });
});
