import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffUser } from '@contract/api/staff-access';
import { json, text } from '../../helpers/api-server';
import { renderApp, type RenderedApp } from '../../helpers/render-app';
import { STAFF_USER } from '../../helpers/staff-users';
import { bookingRoutes, holdReleaseRoutes, type BookingRoutesOptions, type RecordedBookingRequest } from './booking-fixtures';

const NOW = () => new Date('2026-11-23T01:00:00.000Z');

/** A staff member signed in through the identity provider (docs/rules/staff-access.md). */
const STAFF_MEMBER: StaffUser = { ...STAFF_USER, organization: null };

async function openBooking(
  url = '/',
  options: BookingRoutesOptions = {},
  staffUser?: StaffUser,
): Promise<{ app: RenderedApp; log: RecordedBookingRequest[] }> {
  const log: RecordedBookingRequest[] = [];
  const app = await renderApp(url, {
    routes: { ...bookingRoutes(log, options), ...holdReleaseRoutes(log) },
    clock: NOW,
    ...(staffUser === undefined ? {} : { staffUser }),
  });
  await screen.findByRole('checkbox', { name: /CT brain/ });
  return { app, log };
}

/** Chooses CT brain, Parramatta and the first free time named `time`; resolves once the time is held. */
async function holdTime(time: RegExp) {
  fireEvent.click(screen.getByRole('checkbox', { name: /CT brain/ }));
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  // jsdom shares no position: the clinics come sorted from the default region, with no dialog unasked.
  fireEvent.click(await screen.findByRole('button', { name: 'Choose Parramatta' }));
  const [first] = await screen.findAllByRole('button', { name: time });
  if (!first) throw new Error('no free time shown');
  fireEvent.click(first);
  await screen.findByText(/is held for you until/);
}

/** Chooses CT brain, Parramatta and the first free time, then continues to the details step. */
async function toDetails() {
  await holdTime(/at 9:30\sam$/i);
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('textbox', { name: 'First name' });
}

function fillDetails() {
  fireEvent.change(screen.getByRole('combobox', { name: 'Title' }), { target: { value: 'Ms' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Amelia' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Last name' }), { target: { value: 'Sample' } });
  fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '1968-11-02' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), { target: { value: 'amelia@example.com' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Contact number' }), { target: { value: '0491570156' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Postcode' }), { target: { value: '2067' } });
}

describe('booking page', () => {
  it('should book an exam from exam choice to confirmation', async () => {
    const { app, log } = await openBooking();
    await toDetails();
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));
    // The confirmation has its own address (pushed, reload-safe): the appointment's confirmed page.
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/appointments/k3y-Booking-Key-0000000001/confirmed'));
    const post = log.find((request) => request.path === '/api/booking/appointments');
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(post?.body).toMatchObject({
      exams: ['ct-brain'],
      clinicSlug: 'parramatta',
      patient: { firstName: 'Amelia', dateOfBirth: '1968-11-02' },
    });
    expect(app.router.state.location.search).toBe('');
  });

  it('should use the patient-facing variants for staff booking', async () => {
    const { app, log } = await openBooking('/?staffBooking=true', {}, STAFF_MEMBER);
    await toDetails();
    expect(screen.getByText("Enter the patient's details. Fields are checked as you go.")).toBeTruthy();
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));
    // The confirmation has its own address (pushed, reload-safe): the appointment's confirmed page.
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/appointments/k3y-Booking-Key-0000000001/confirmed'));
    expect(log.find((request) => request.path === '/api/booking/appointments')?.body).toMatchObject({ staffBooking: true });
  });

  it('should keep the patient flow for a patient who adds staffBooking=true', async () => {
    const { app, log } = await openBooking('/?staffBooking=true');
    await toDetails();
    expect(screen.getByText('Enter the details of the person having the exam. Fields are checked as you go.')).toBeTruthy();
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));
    // The confirmation has its own address (pushed, reload-safe): the appointment's confirmed page.
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/appointments/k3y-Booking-Key-0000000001/confirmed'));
    expect(log.find((request) => request.path === '/api/booking/appointments')?.body).not.toHaveProperty('staffBooking');
  });

  it('should keep the patient flow for a referring doctor who adds staffBooking=true', async () => {
    await openBooking('/?staffBooking=true', {}, { ...STAFF_MEMBER, roles: ['referrer'] });
    await toDetails();
    expect(screen.getByText('Enter the details of the person having the exam. Fields are checked as you go.')).toBeTruthy();
  });

  it('should show a field problem next to the field when it is left, before any submit', async () => {
    const { log } = await openBooking();
    await toDetails();
    const contact = screen.getByRole('textbox', { name: 'Contact number' });
    fireEvent.change(contact, { target: { value: '049157015612' } });
    expect(screen.queryByText('please enter a valid contact number')).toBeNull();
    fireEvent.blur(contact);
    const problem = await screen.findByText('please enter a valid contact number');
    expect(contact.getAttribute('aria-invalid')).toBe('true');
    expect(contact.getAttribute('aria-describedby')).toContain(problem.id);
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '2030-01-01' } });
    fireEvent.blur(screen.getByLabelText('Date of birth'));
    expect(await screen.findByText('Date of birth cannot be in the future.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));
    expect(await screen.findByText('Please choose a title.')).toBeTruthy();
    expect(screen.getByText('First name is required.')).toBeTruthy();
    // Focus moves to the first field with a problem.
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Title' }));
    expect(log.some((request) => request.path === '/api/booking/appointments')).toBe(false);
  });

  it('should show the 503 text in the error modal; closing it reloads times and clears date and time from the URL', async () => {
    const { app, log } = await openBooking('/', { createAppointments: (_request, response) => text(response, 503, 'maintenance') });
    await toDetails();
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Your appointment was not booked' });
    expect(within(dialog).getByText('Online booking is briefly unavailable (error 503). Please try again in a few minutes.')).toBeTruthy();
    const before = log.filter((request) => request.path === '/api/booking/availability').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Choose a clinic and a time' })).toBeTruthy();
    await waitFor(() => expect(log.filter((request) => request.path === '/api/booking/availability').length).toBe(before + 1));
    const search = new URLSearchParams(app.router.state.location.search);
    expect(search.get('date')).toBeNull();
    expect(search.get('time')).toBeNull();
    expect(search.get('clinic')).toBe('parramatta');
  });

  it('should show the clear message and fresh times when the time was taken meanwhile', async () => {
    await openBooking('/', {
      createAppointments: (_request, response) =>
        json(response, 409, { code: 'slot_taken', message: 'That time was just taken. Please choose another time.' }),
    });
    await toDetails();
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'That time was just taken. Please choose another time.');
    expect((await screen.findAllByRole('button', { name: /at 9:30\sam$/i })).length).toBeGreaterThan(0);
  });

  it('should say when to try again and give the clinic phone when the booking limits refuse, keeping every detail typed', async () => {
    // 11 hours after NOW: 23:00 on Monday in Sydney (daylight time).
    await openBooking('/', {
      createAppointments: (_request, response) =>
        json(response, 429, { code: 'too_many_requests', message: 'Too many bookings.', details: { retryAfterSeconds: 11 * 60 * 60 } }),
    });
    await toDetails();
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(
      /^Too many bookings have been made from this connection today\. You can try again after Monday 11:00\s?(pm|PM), or call the clinic on 02 5550 0110 to book\.No time that suits you/,
    );
    // The way to a call back instead (docs/rules/callbacks.md).
    expect(within(alert).getByRole('link', { name: 'Ask us to call you' })).toBeTruthy();
    // Still on the details, with nothing typed lost.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveProperty('value', 'Amelia');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveProperty('value', 'amelia@example.com');
    expect(screen.getByRole('textbox', { name: 'Contact number' })).toHaveProperty('value', '0491570156');
    expect(screen.getByLabelText('Date of birth')).toHaveProperty('value', '1968-11-02');
  });

  it('should send the kiosk patient to reception when the server asks for a proof-of-work answer', async () => {
    const { log } = await openBooking('/?kioskMode=true', {
      createAppointments: (_request, response) =>
        json(response, 403, { code: 'captcha_required', message: 'Please try again.', details: { header: 'x-captcha' } }),
    });
    await toDetails();
    fillDetails();
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Please ask at reception to finish this booking.');
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveProperty('value', 'Amelia');
    // The kiosk never solves a challenge.
    expect(log.some((request) => request.path === '/api/captcha/challenge')).toBe(false);
  });

  it('should choose a body part with the keyboard and narrow the exams to it', async () => {
    await openBooking();
    const knee = screen.getByRole('button', { name: 'Knee' });
    expect(knee.getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(knee, { key: 'Enter' });
    expect(knee.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('Body part: Knee')).toBeTruthy();
    const names = screen.getAllByRole('checkbox').map((box) => box.closest('li')?.querySelector('.pp-exam-name')?.textContent);
    expect(names).toEqual(['MRI knee', 'X-ray knee']);
    fireEvent.click(screen.getByRole('button', { name: 'MRI' }));
    expect(screen.getByRole('button', { name: 'Head' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('should draw the body figure with the configured gradient, hover colour and transition', async () => {
    const { app } = await openBooking();
    const figure = screen.getByRole('group', { name: 'Body parts: choose where the exam is' });
    const stops = [...figure.querySelectorAll('stop')].map((stop) => stop.getAttribute('stop-color'));
    expect(stops).toEqual(app.root.config.config.bodyFigure.gradientColors);
    expect((figure as unknown as SVGElement).style.getPropertyValue('--pp-body-hover')).toBe(app.root.config.config.bodyFigure.hoverColor);
    expect((figure as unknown as SVGElement).style.getPropertyValue('--pp-body-transition')).toBe(
      `${app.root.config.config.bodyFigure.hoverTransitionMs}ms`,
    );
  });

  it('should find exams by name', async () => {
    await openBooking();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search exams by name' }), { target: { value: 'chest' } });
    expect(screen.getAllByRole('checkbox').map((box) => box.closest('li')?.querySelector('.pp-exam-name')?.textContent)).toEqual([
      'CT chest',
    ]);
    expect(screen.getByText('Exams found: 1')).toBeTruthy();
  });

  it('should open the walk-in dialog for exams of differing modalities and record the choice', async () => {
    await openBooking();
    fireEvent.click(screen.getByRole('checkbox', { name: /CT brain/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /X-ray knee/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Your exams use different equipment' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'X-ray walk-in: arrive 30 minutes earlier' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Walk-in exam: X-ray walk-in')).toBeTruthy();
  });

  it('should reset the chosen date and time when switching to the month view', async () => {
    const { app } = await openBooking();
    await holdTime(/at 2:00\spm$/i);
    await waitFor(() => expect(app.router.state.location.search).toContain('time='));
    fireEvent.click(screen.getByRole('button', { name: 'Month' }));
    await waitFor(() => expect(app.router.state.location.search).not.toContain('time='));
    expect(app.router.state.location.search).not.toContain('date=');
    expect(app.router.state.location.search).toContain('view=MONTH');
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
  });

  it('should show the booking flow inside /iframe/advanced-booking', async () => {
    await openBooking('/iframe/advanced-booking');
    expect(screen.getByRole('heading', { level: 1, name: 'Book an appointment' })).toBeTruthy();
    expect(document.querySelector('.pp-embedded')).not.toBeNull();
  });
});
