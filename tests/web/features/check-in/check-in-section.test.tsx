import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import { appointmentServer, BOOKING_KEY } from '../appointments/appointment-fixtures';
import { checkInServer, DOCTORS, statusFixture } from './check-in-fixtures';

// Digital check-in on the appointment page, against a stand-in API over real HTTP (docs/rules/check-in.md).

const PAGE = `/appointments/${BOOKING_KEY}`;

async function open(checkIn = checkInServer()) {
  const app = await renderApp(PAGE, { routes: { ...appointmentServer({ consentForms: [] }).routes, ...checkIn.routes } });
  const section = await screen.findByRole('region', { name: 'Check in' }, { timeout: 10_000 });
  return { app, checkIn, section };
}

const openDialog = () =>
  waitFor(() => {
    const dialog = document.querySelector<HTMLElement>('dialog[open]');
    if (!dialog) throw new Error('no dialog is open');
    return dialog;
  });

function fill(section: HTMLElement, label: string, value: string) {
  const input = within(section).getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('digital check-in on the appointment page', () => {
  it('searches doctors from 3 characters after the typing stops, takes the form, and follows the hand-off to checked in', async () => {
    const { checkIn, section } = await open();
    const submit = within(section).getByRole('button', { name: 'Check in' });
    expect(submit.hasAttribute('disabled')).toBe(true);

    const search = within(section).getByLabelText('Referring doctor');
    fireEvent.change(search, { target: { value: 'Ng' } });
    fireEvent.change(search, { target: { value: 'NGU' } });
    fireEvent.change(search, { target: { value: 'Nguy' } });
    const choice = await within(section).findByRole('button', { name: /Choose Dr Amelia Nguyen, Parramatta Family Practice/ });
    // Only the last text, lower-cased, was asked for: nothing under 3 characters, nothing typed past.
    expect(checkIn.searches).toEqual(['nguy']);
    fireEvent.click(choice);
    expect(within(section).getByTestId('chosen-doctor').textContent).toContain('Dr Amelia Nguyen');

    fill(section, 'Date on your referral', '2026-11-02');
    fill(section, 'Medicare card number', '2123 45671 1');
    expect(within(section).getByText('Enter the 10-digit number on your Medicare card.')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(true);
    fill(section, 'Medicare card number', '2123 45670 1');
    fill(section, 'Your number on the card', '2');
    expect(submit.hasAttribute('disabled')).toBe(false);

    fireEvent.click(submit);
    const processing = await openDialog();
    expect(within(processing).getByRole('heading', { name: 'Checking you in' })).toBeTruthy();
    expect(within(processing).queryAllByRole('button')).toHaveLength(0);
    const confirmed = await waitFor(() => {
      const dialog = document.querySelector<HTMLElement>('dialog[open]');
      if (!dialog || !within(dialog).queryByRole('heading', { name: 'You are checked in' })) throw new Error('not yet');
      return dialog;
    });
    expect(checkIn.prepared).toEqual([
      { referrer: DOCTORS[0]?.id, dateOfReferral: '2026-11-02', medicareNumber: '2123 45670 1', referenceNumber: '2' },
    ]);
    expect(checkIn.checkIns).toBe(1);
    fireEvent.click(within(confirmed).getByRole('button', { name: 'OK' }));
    expect(await within(section).findByText('You are checked in for this appointment.')).toBeTruthy();

    // What is still to do, with the fasting time in the clinic's zone.
    const checklist = await within(section).findByRole('region', { name: 'Before your scan' });
    expect(await within(checklist).findByText('Sign the consent form for this appointment (on your appointment page).')).toBeTruthy();
    expect(within(checklist).getByText(/^Nothing to eat from 5:30\s?am \(4 hours before the scan\)\.$/i)).toBeTruthy();
    // The preparation is printed once, in the exam details, not again in the checklist.
    expect(within(checklist).queryByText('Arrive 60 minutes early to drink the oral contrast.')).toBeNull();
  });

  it('says when check-in opens when the window is not open yet', async () => {
    const { section } = await open(checkInServer(statusFixture({ windowOpen: false })));
    expect(within(section).getByText(/Online check-in opens 120 minutes before your appointment, at .*7:30/)).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Check in' })).toBeNull();
  });

  it('sends the patient to upload the referral when it is missing', async () => {
    const readiness = {
      ready: false,
      requiredReferralUploaded: false,
      documentTypeId: 'referral-type',
      message: 'Please upload your referral before you check in.',
    };
    const { section, app } = await open(checkInServer(statusFixture({ readiness })));
    const link = within(section).getByRole('link', { name: 'Upload your referral' });
    fireEvent.click(link);
    await waitFor(() => expect(app.router.state.location.search).toBe('?upload=1'));
  });

  it('shows the check-in error when the clinic system refuses the hand-off', async () => {
    const { section } = await open(checkInServer(statusFixture({ simpleMode: true }), true));
    fireEvent.click(within(section).getByRole('button', { name: 'Check in' }));
    const confirm = await openDialog();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Yes, check in' }));
    const failed = await waitFor(() => {
      const dialog = document.querySelector<HTMLElement>('dialog[open]');
      if (!dialog || !within(dialog).queryByRole('heading', { name: 'We could not check you in online' })) throw new Error('not yet');
      return dialog;
    });
    expect(within(failed).getByText('Please check in at the front desk when you arrive. Nothing else is needed from you.')).toBeTruthy();
  });

  it('is not shown when the exam does not take check-in', async () => {
    const checkIn = checkInServer(statusFixture({ enabled: false }));
    await renderApp(PAGE, { routes: { ...appointmentServer({ consentForms: [] }).routes, ...checkIn.routes } });
    await screen.findByRole('heading', { level: 2, name: 'Booking details' }, { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('region', { name: 'Check in' })).toBeNull();
  });
});
