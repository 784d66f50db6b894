import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import { appointmentServer, BOOKING_KEY, summaryFixture } from './appointment-fixtures';

// The appointment page and the confirmation show a booking's times from one component
// (summary-rows.tsx): the same rows, the same words. The confirmation lists the documents sent.

const summary = summaryFixture({
  appointments: [
    { ...summaryFixture().appointments[0]!, slug: 'a1' },
    {
      slug: 'a2',
      examSlug: 'mri-hip',
      examName: 'MRI hip',
      modalityName: 'MRI',
      startsAt: '2026-11-30T23:00:00.000Z',
      endsAt: '2026-11-30T23:30:00.000Z',
      preparationNotes: '',
      status: 'BOOKED',
    },
  ],
  documents: [
    { title: 'Referral', fileName: 'knee-referral.pdf' },
    { title: null, fileName: 'letter.pdf' },
  ],
});

function timeRows(testId: string): string[] {
  return screen.getAllByTestId(testId).map((time) => `${time.getAttribute('datetime')} ${time.closest('div')?.textContent ?? ''}`);
}

/** The fake self-service API, answering the confirmation as the summary (the real server does). */
function routes() {
  const fake = appointmentServer({ summary, consentForms: [] });
  return { ...fake.routes, [`GET /api/appointments/${BOOKING_KEY}/confirmation`]: fake.routes[`GET /api/appointments/${BOOKING_KEY}`]! };
}

async function rowsOf(url: string, testId: string): Promise<string[]> {
  const app = await renderApp(url, { routes: routes() });
  await screen.findAllByTestId(testId, {}, { timeout: 10_000 });
  const rows = timeRows(testId);
  app.unmount();
  return rows;
}

describe('summary rows shared by the appointment page and the confirmation', () => {
  it('shows each exam with its start in the clinic zone and its modality, the same on both pages', async () => {
    const page = await rowsOf(`/appointments/${BOOKING_KEY}`, 'appointment-time');
    const confirmed = await rowsOf(`/appointments/${BOOKING_KEY}/confirmed`, 'confirmed-time');
    expect(page).toHaveLength(2);
    expect(page[0]).toMatch(/^2026-11-30T22:30:00.000Z MRI knee.*9:30.* · MRI$/);
    expect(page[1]).toMatch(/^2026-11-30T23:00:00.000Z MRI hip.*10:00.* · MRI$/);
    expect(confirmed).toEqual(page);
  });

  it('lists the documents sent with the booking on the confirmation, by type and file name', async () => {
    await renderApp(`/appointments/${BOOKING_KEY}/confirmed`, { routes: routes() });
    const row = await screen.findByTestId('sent-documents', {}, { timeout: 10_000 });
    expect(within(row).getByText('Documents sent', { selector: 'dt' })).toBeTruthy();
    expect(
      within(row)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Referral: knee-referral.pdf', 'Another document: letter.pdf']);
  });
});
