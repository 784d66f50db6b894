import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChangeRefusal } from '@contract/api/appointments';
import { renderApp, type RenderedApp } from '../../helpers/render-app';
import { testConfig } from '../../helpers/test-config';
import {
  answer,
  appointmentServer,
  BOOKING_KEY,
  CONSENT_FORM,
  summaryFixture,
  type AppointmentServerOptions,
} from './appointment-fixtures';

const PAGE = `/appointments/${BOOKING_KEY}`;

async function open(options: AppointmentServerOptions = {}, url = PAGE) {
  const fake = appointmentServer({ consentForms: [], ...options });
  const app = await renderApp(url, { routes: fake.routes });
  return { app, fake };
}

const location = (app: RenderedApp) => `${app.router.state.location.pathname}${app.router.state.location.search}`;
const button = (name: string | RegExp) => screen.getByRole('button', { name });
/** The open dialog, whatever its role (information and yes/no dialogs are alertdialogs). */
const dialog = () =>
  waitFor(() => {
    const open = document.querySelector<HTMLElement>('dialog[open]');
    if (!open) throw new Error('no dialog is open');
    return open;
  });

async function loaded() {
  // The first test loads the page's lazy chunks: it may take longer than findBy's default second under load.
  await screen.findByRole('heading', { level: 2, name: 'Booking details' }, { timeout: 10_000 });
}

/** On the loaded page: the details change form opened, the fields typed in (by label) and sent. */
async function requestDetailsChange(typed: Record<string, string>) {
  fireEvent.click(button('Request a change to my details'));
  const form = await screen.findByRole('dialog', { name: 'Change my details' });
  for (const [label, value] of Object.entries(typed)) fireEvent.change(within(form).getByLabelText(label), { target: { value } });
  fireEvent.click(within(form).getByRole('button', { name: 'Send request' }));
}

/** The page loaded with the server refusing a details change with `refusal`, a change typed and sent: the error dialog. */
async function refusedDetailsChange(refusal: ReturnType<typeof answer>, typed: Record<string, string>) {
  await open({ answers: { details: refusal } });
  await loaded();
  await requestDetailsChange(typed);
  return screen.findByRole('alertdialog', { name: 'We could not send your request' });
}

describe('appointment page: the summary', () => {
  it('should show the exam, the time in the clinic zone, the clinic with address, phone and map link, preparation and status', async () => {
    await open();
    await loaded();
    expect(screen.getByRole('heading', { level: 1, name: 'Your appointment' })).toBeTruthy();
    expect(screen.getByTestId('appointment-status').textContent).toBe('Booked');
    expect(screen.getByText('MRI knee', { selector: 'dt' })).toBeTruthy();
    const time = screen.getByTestId('appointment-time');
    expect(time.getAttribute('datetime')).toBe('2026-11-30T22:30:00.000Z');
    // 22:30 UTC is 9:30 am the next day in Sydney (AEDT).
    expect(time.textContent).toMatch(/Tuesday,? 1 December 2026/);
    expect(time.textContent).toMatch(/9:30/);
    expect(time.textContent).toMatch(/AEDT|GMT\+11/);
    expect(screen.getByText('Parramatta Imaging')).toBeTruthy();
    expect(screen.getByText(/12 Church Street, Parramatta NSW 2150/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '02 9000 0000' }).getAttribute('href')).toBe('tel:0290000000');
    const map = screen.getByRole('link', { name: 'Show Parramatta Imaging on a map (opens in a new tab)' });
    expect(map.getAttribute('href')).toContain('https://www.google.com/maps/search/');
    expect(map.getAttribute('rel')).toContain('noopener');
    expect(screen.getByText('Remove all metal before the scan.')).toBeTruthy();
    expect(screen.getByText('Ms Lena Tran')).toBeTruthy();
  });

  it('should show the pending note for a booking the clinic has yet to confirm (the pending route too)', async () => {
    await open({ summary: summaryFixture({ status: 'PENDING', pending: true }) }, `/appointments/pending/${BOOKING_KEY}`);
    await loaded();
    expect(screen.getByText(/waiting for the clinic to confirm it/)).toBeTruthy();
    expect(screen.getByTestId('appointment-status').textContent).toBe('Waiting for the clinic to confirm');
  });

  it.each([`/a/${BOOKING_KEY}`, `/parramatta/appointments/${BOOKING_KEY}`, `/iframe/appointments/${BOOKING_KEY}`])(
    'should open at %s',
    async (url) => {
      await open({}, url);
      await loaded();
      expect(screen.getByText('Parramatta Imaging')).toBeTruthy();
    },
  );

  it('should send a patient without a session to sign in, coming back here', async () => {
    const { app, fake } = await open({ signedIn: false });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/authentication'));
    const params = app.router.state.location.search;
    expect(params).toContain(`returnUrl=${encodeURIComponent(PAGE)}`);
    expect(params).toContain(`bookingKey=${BOOKING_KEY}`);
    expect(params).toContain('type=APPOINTMENT');
    expect(fake.writes).toEqual([]);
  });

  it.each(['EXPIRED', 'EXPIRED_PATIENT', 'CANCELED', 'DECLINED_BY_PATIENT', 'REMOVED_BY_OPERATOR', 'DELETED', 'ON_HOLD'] as const)(
    'should send status %s to /deny?status=…',
    async (status) => {
      const { app } = await open({ summary: summaryFixture({ status }) });
      await waitFor(() => expect(location(app)).toBe(`/deny?status=${status}`));
    },
  );

  it('should keep /deny inside the frame when embedded', async () => {
    const { app } = await open({ summary: summaryFixture({ status: 'CANCELED' }) }, `/iframe/appointments/${BOOKING_KEY}`);
    await waitFor(() => expect(location(app)).toBe('/iframe/deny?status=CANCELED'));
    expect(await screen.findByText('This appointment has been cancelled.')).toBeTruthy();
  });

  it('should say so when the booking cannot be loaded, and load it again on request', async () => {
    let fail = true;
    const fake = appointmentServer({ consentForms: [] });
    const summaryRoute = fake.routes[`GET /api/appointments/${BOOKING_KEY}`];
    fake.routes[`GET /api/appointments/${BOOKING_KEY}`] = (request, response) => {
      if (fail) return answer(503, { code: 'service_unavailable', message: 'down' })(response);
      summaryRoute?.(request, response);
    };
    await renderApp(PAGE, { routes: fake.routes });
    expect(await screen.findByText('We could not load your appointment. Please try again.')).toBeTruthy();
    fail = false;
    fireEvent.click(button('Try again'));
    await loaded();
  });
});

describe('appointment page: texts loaded with the page', () => {
  it('should show the page in Macedonian from the self-service catalogue', async () => {
    const fake = appointmentServer({ consentForms: [] });
    const base = testConfig();
    await renderApp(PAGE, { routes: fake.routes, config: { ...base, app: { ...base.app, locale: 'mk' } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Вашиот термин' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Откажи термин' })).toBeTruthy();
  });

  it("should let the provider's server translations win over the loaded texts", async () => {
    const fake = appointmentServer({ consentForms: [] });
    await renderApp(PAGE, { routes: fake.routes, overlay: { appointment: { title: 'Your visit' } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your visit' })).toBeTruthy();
    await loaded();
  });
});

describe('appointment page: cancel', () => {
  it('should name the prior-minutes limit when cancelling is no longer allowed, and cancel nothing', async () => {
    const { fake } = await open({ canCancel: { canChange: false, reason: 'PRIOR_MINUTES', priorMinutes: 1440 } });
    await loaded();
    fireEvent.click(button('Cancel appointment'));
    const info = await dialog();
    expect(within(info).getByRole('heading', { name: 'This appointment can no longer be cancelled online' })).toBeTruthy();
    expect(within(info).getByText(/only until 24 hours before the start time/)).toBeTruthy();
    expect(fake.canChangeQueries).toEqual(['CANCEL']);
    fireEvent.click(within(info).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fake.writes).toEqual([]);
  });

  it('should confirm, then ask for a reason (required), then cancel with the reason and note and show CANCELED', async () => {
    const { fake } = await open();
    await loaded();
    fireEvent.click(button('Cancel appointment'));
    const confirm = await dialog();
    expect(within(confirm).getByRole('heading', { name: 'Cancel this appointment?' })).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Yes' }));

    const reasons = await screen.findByRole('dialog', { name: 'Why are you cancelling?' });
    fireEvent.click(within(reasons).getByRole('button', { name: 'Cancel appointment' }));
    expect(await within(reasons).findByText('Please choose a reason.')).toBeTruthy();
    expect(fake.writes).toEqual([]);

    fireEvent.click(within(reasons).getByRole('radio', { name: 'I am feeling better' }));
    fireEvent.change(within(reasons).getByLabelText('Anything else we should know? (optional)'), { target: { value: '  Better now  ' } });
    fireEvent.click(within(reasons).getByRole('button', { name: 'Cancel appointment' }));

    expect(await screen.findByText('Your appointment has been cancelled.')).toBeTruthy();
    expect(screen.getByTestId('appointment-status').textContent).toBe('Cancelled');
    expect(fake.writes).toEqual([{ name: 'cancel', body: { reason: { label: 'I am feeling better' }, note: 'Better now' } }]);
    // The Cancel button is gone with the dialog: the focus goes to the outcome line.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Your appointment has been cancelled.'));
    // A cancelled appointment offers no more actions.
    expect(screen.queryByRole('button', { name: 'Reschedule' })).toBeNull();
  });

  it('should cancel straight after the confirmation when no reasons are configured', async () => {
    const { fake } = await open({ summary: summaryFixture({ cancelReasons: [] }) });
    await loaded();
    fireEvent.click(button('Cancel appointment'));
    fireEvent.click(within(await dialog()).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Your appointment has been cancelled.')).toBeTruthy();
    expect(fake.writes).toEqual([{ name: 'cancel', body: {} }]);
  });

  it('should keep the appointment when the patient says no', async () => {
    const { fake } = await open();
    await loaded();
    fireEvent.click(button('Cancel appointment'));
    fireEvent.click(within(await dialog()).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByTestId('appointment-status').textContent).toBe('Booked');
    expect(fake.writes).toEqual([]);
  });

  it('should go to the CANCEL_APPOINTMENT_PATIENT questionnaire when the provider requires one', async () => {
    const { app, fake } = await open({ summary: summaryFixture({ cancelQuestionnaireRequired: true }) });
    await loaded();
    fireEvent.click(button('Cancel appointment'));
    fireEvent.click(within(await dialog()).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(location(app)).toBe(`/questionnaires?bookingKey=${BOOKING_KEY}&type=CANCEL_APPOINTMENT_PATIENT`));
    expect(fake.writes).toEqual([]);
  });

  it('should show the limit when the server refuses the cancellation itself (409 change_not_allowed)', async () => {
    await open({
      summary: summaryFixture({ cancelReasons: [] }),
      answers: {
        cancel: answer(409, { code: 'change_not_allowed', message: 'Too late', details: { reason: 'PRIOR_MINUTES', priorMinutes: 120 } }),
      },
    });
    await loaded();
    fireEvent.click(button('Cancel appointment'));
    fireEvent.click(within(await dialog()).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(/only until 2 hours before the start time/)).toBeTruthy();
    expect(screen.getByTestId('appointment-status').textContent).toBe('Booked');
  });

  it('should show the server message when the cancellation fails otherwise', async () => {
    await open({
      summary: summaryFixture({ cancelReasons: [] }),
      answers: { cancel: answer(503, { code: 'service_unavailable', message: 'internal' }) },
    });
    await loaded();
    fireEvent.click(button('Cancel appointment'));
    fireEvent.click(within(await dialog()).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Sorry, we could not do that. Please try again later or call the clinic.')).toBeTruthy();
  });
});

describe('appointment page: reschedule and change', () => {
  const cases: [ChangeRefusal, string, RegExp][] = [
    ['WALK_IN', 'This appointment cannot be rescheduled online', /includes a walk-in exam/],
    ['APPOINTMENT_CANCELLED', 'This appointment cannot be rescheduled', /has been cancelled, so it cannot be rescheduled/],
    ['PRIOR_MINUTES', 'This appointment cannot be rescheduled', /only until 24 hours before the start time/],
    ['OTHER', 'This appointment cannot be rescheduled', /cannot be moved online any more/],
  ];

  it.each(cases)('should explain a %s refusal and stay on the page', async (reason, title, text) => {
    const { app } = await open({ canReschedule: { canChange: false, reason, priorMinutes: 1440 } });
    await loaded();
    fireEvent.click(button('Reschedule'));
    const info = await dialog();
    expect(within(info).getByRole('heading', { name: title })).toBeTruthy();
    expect(within(info).getByText(text)).toBeTruthy();
    expect(app.router.state.location.pathname).toBe(PAGE);
  });

  it('should open the booking flow at the times of the same exams and clinic with the RESCHEDULED context', async () => {
    const { app, fake } = await open();
    await loaded();
    fireEvent.click(button('Reschedule'));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    const params = new URLSearchParams(app.router.state.location.search);
    expect(params.get('reschedule')).toBe(BOOKING_KEY);
    expect(params.get('context')).toBe('RESCHEDULED');
    expect(params.get('exams')).toBe('mri-knee');
    expect(params.get('clinic')).toBe('parramatta');
    expect(params.get('lat')).toBe('-33.8151');
    expect(params.get('lng')).toBe('151.0011');
    expect(fake.canChangeQueries).toEqual(['RESCHEDULE']);
  });

  it('should open the exam choice with the CHANGED context for a change, inside the frame when embedded', async () => {
    const { app } = await open({}, `/iframe/appointments/${BOOKING_KEY}`);
    await loaded();
    fireEvent.click(button('Change exams or clinic'));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/iframe/advanced-booking'));
    const params = new URLSearchParams(app.router.state.location.search);
    expect(params.get('context')).toBe('CHANGED');
    expect(params.get('step')).toBeNull();
    expect(params.get('exams')).toBe('mri-knee');
  });

  it('should ask the clinic to reschedule after a confirmation (status REQUEST_RESCHEDULE)', async () => {
    const { fake } = await open();
    await loaded();
    fireEvent.click(button('Ask the clinic to reschedule'));
    fireEvent.click(within(await dialog()).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(/asked the clinic to find you another time/)).toBeTruthy();
    expect(screen.getByTestId('appointment-status').textContent).toBe('Reschedule requested');
    expect(fake.writes.map((write) => write.name)).toEqual(['requestReschedule']);
  });
});

describe('appointment page: confirm, consent, details, e-mails', () => {
  it('should confirm the appointment', async () => {
    const { fake } = await open();
    await loaded();
    fireEvent.click(button('Confirm my appointment'));
    expect(await screen.findByText('Thank you, your appointment is confirmed.')).toBeTruthy();
    expect(screen.getByTestId('appointment-status').textContent).toBe('Confirmed');
    expect(screen.queryByRole('button', { name: 'Confirm my appointment' })).toBeNull();
    expect(fake.writes.map((write) => write.name)).toEqual(['confirm']);
  });

  it('should offer no confirmation when the provider does not ask for one', async () => {
    await open({ summary: summaryFixture({ canConfirm: false }) });
    await loaded();
    expect(screen.queryByRole('button', { name: 'Confirm my appointment' })).toBeNull();
  });

  it('should announce unsigned consent forms, show the sanitised form and sign it with a typed name and agreement', async () => {
    const { fake } = await open({ consentForms: [CONSENT_FORM], notifyPatient: true });
    const notice = await screen.findByRole('dialog', { name: 'Consent forms to sign' });
    expect(within(notice).getByText('1 consent form for this appointment still needs your signature.')).toBeTruthy();
    fireEvent.click(within(notice).getByRole('button', { name: 'Sign now' }));

    const form = await screen.findByRole('dialog', { name: 'MRI safety consent' });
    expect(await within(form).findByRole('heading', { name: 'MRI safety' })).toBeTruthy();
    expect(form.innerHTML).not.toContain('<script');
    expect(form.innerHTML).not.toContain('onerror');
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();

    fireEvent.click(within(form).getByRole('button', { name: 'Sign and save' }));
    expect(await within(form).findByText('Please type your full name to sign.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Type your full name to sign'), { target: { value: ' Lena Tran ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Sign and save' }));
    expect(await within(form).findByText('Please tick that you agree.')).toBeTruthy();
    expect(fake.writes).toEqual([]);

    fireEvent.click(within(form).getByLabelText('I have read this form and I agree'));
    fireEvent.click(within(form).getByRole('button', { name: 'Sign and save' }));
    expect(await screen.findByText('Thank you, the consent form is signed.')).toBeTruthy();
    expect(fake.writes).toEqual([{ name: 'sign', body: { signedName: 'Lena Tran', agreed: true } }]);
    expect(screen.getByText('Signed by Lena Tran')).toBeTruthy();
  });

  it('should send a details change request and show the success modal', async () => {
    const { fake } = await open();
    await loaded();
    fireEvent.click(button('Request a change to my details'));
    const form = await screen.findByRole('dialog', { name: 'Change my details' });
    fireEvent.click(within(form).getByRole('button', { name: 'Send request' }));
    expect(await within(form).findByText('Please change at least one detail.')).toBeTruthy();
    expect(fake.writes).toEqual([]);

    fireEvent.change(within(form).getByLabelText('Last name'), { target: { value: 'Nguyen' } });
    fireEvent.change(within(form).getByLabelText('E-mail'), { target: { value: 'lena@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send request' }));
    const success = await screen.findByRole('dialog', { name: 'Request sent' });
    expect(within(success).getByText('Thank you. The clinic will update your details.')).toBeTruthy();
    expect(fake.writes).toEqual([{ name: 'details', body: { lastName: 'Nguyen', email: 'lena@example.com' } }]);
  });

  it('should show the server message in the error modal, and go back to the form with what was typed', async () => {
    const error = await refusedDetailsChange(answer(400, { code: 'validation_failed', message: 'Please enter a valid e-mail address.' }), {
      'E-mail': 'not-an-email',
    });
    expect(within(error).getByText('Please enter a valid e-mail address.')).toBeTruthy();
    fireEvent.click(within(error).getByRole('button', { name: 'Back to the form' }));
    const again = await screen.findByRole('dialog', { name: 'Change my details' });
    expect((within(again).getByLabelText('E-mail') as HTMLInputElement).value).toBe('not-an-email');
  });

  it('should show the default text in the error modal when the server gives no usable message', async () => {
    const error = await refusedDetailsChange(answer(500, { code: 'internal_error', message: 'Internal Server Error' }), {
      'First name': 'Lena',
    });
    expect(within(error).getByText('Sorry, something went wrong. Please try again later or call the clinic.')).toBeTruthy();
  });

  it('should unsubscribe from e-mails', async () => {
    const { fake } = await open();
    await loaded();
    fireEvent.click(button('Stop e-mails about this booking'));
    expect(await screen.findByText('You will no longer receive e-mails about this booking.')).toBeTruthy();
    expect(screen.getByText('You receive no e-mails about this booking.')).toBeTruthy();
    expect(fake.writes.map((write) => write.name)).toEqual(['unsubscribe']);
  });
});
