import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import {
  appointmentServer,
  BOOKING_KEY,
  CONSENT_FORM,
  dayPlanFixture,
  summaryFixture,
  type AppointmentServerOptions,
} from './appointment-fixtures';

// "Your day" on the appointment page (docs/rules/day-plan.md): the server's instants read as the
// clinic's clock times, in order, a step that is over says so in words, what is missing goes when
// the patient signs, and the way there with its map link and parking.

async function open(options: AppointmentServerOptions = {}) {
  const fake = appointmentServer({ consentForms: [CONSENT_FORM], ...options });
  await renderApp(`/appointments/${BOOKING_KEY}`, { routes: fake.routes });
  await screen.findByRole('heading', { level: 2, name: 'Booking details' }, { timeout: 10_000 });
  return fake;
}

const daySection = async () => (await screen.findByRole('heading', { level: 2, name: 'Your day' })).closest('section') as HTMLElement;

describe('appointment page: your day', () => {
  it('lists the timed steps in the clinic’s time, marks the one that is over, and gives the way there', async () => {
    await open();
    const section = await daySection();
    expect(within(section).getByText("Your plan for Tuesday 1 December. Times are the clinic's local time.")).toBeTruthy();
    const [steps] = within(section).getAllByRole('list');
    const rows = within(steps as HTMLElement).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      '5:30 amStop eating until after your scanDone',
      '8:30 amDrink 1 litre of waterFinish by 9:00 am',
      '9:15 amArrive at Parramatta Imaging and check in at the kiosk or the front desk',
      '9:30 amYour MRI knee starts',
    ]);
    expect(rows[0]?.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-30T18:30:00.000Z');

    const map = within(section).getByRole('link', { name: 'Open Parramatta Imaging in maps (opens in a new tab)' });
    expect(map.getAttribute('href')).toBe(dayPlanFixture().clinic.mapUrl);
    expect(within(section).getByText('Free parking behind the clinic.')).toBeTruthy();
    expect(within(section).getByText('12 Church Street, Parramatta NSW 2150')).toBeTruthy();
  });

  it('drops the unsigned consent form from what is still needed once the patient signs it', async () => {
    await open();
    const section = await daySection();
    const needed = within(section).getByRole('list', { name: 'Still needed' });
    expect(within(needed).getByText('Sign the consent form under Consent forms on this page.')).toBeTruthy();

    fireEvent.click(await screen.findByRole('button', { name: 'Read and sign: MRI safety consent' }));
    const form = await screen.findByRole('dialog', { name: 'MRI safety consent' });
    fireEvent.change(within(form).getByLabelText('Type your full name to sign'), { target: { value: 'Lena Tran' } });
    fireEvent.click(within(form).getByLabelText('I have read this form and I agree'));
    fireEvent.click(within(form).getByRole('button', { name: 'Sign and save' }));
    expect(await screen.findByText('Thank you, the consent form is signed.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Still needed' })).toBeNull());
  });

  it('sends a checked-in patient to the desk for the forms: the page no longer offers them', async () => {
    await open({ summary: summaryFixture({ status: 'CHECKED_IN' }) });
    const needed = within(await daySection()).getByRole('list', { name: 'Still needed' });
    expect(within(needed).getByText('Ask at the front desk to sign the consent form for this appointment.')).toBeTruthy();
  });

  it('leaves the section out when no step is left', async () => {
    await open({ dayPlan: dayPlanFixture({ steps: [] }) });
    expect(screen.queryByRole('heading', { name: 'Your day' })).toBeNull();
  });

  it('says the plan could not be loaded and keeps the rest of the page', async () => {
    await open({ dayPlan: null });
    const section = await daySection();
    expect(within(section).getByText('We could not load the plan for your day. Your appointment is unchanged.')).toBeTruthy();
    expect(screen.getByTestId('appointment-status').textContent).toBe('Booked');
  });
});
