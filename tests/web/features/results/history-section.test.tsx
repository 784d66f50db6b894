import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import { historyRoute, PENDING_HISTORY, RELEASED_ID, releasedHistory } from './history-fixtures';
import { BOOKING_KEY, releasedResult, resultServer } from './results-fixtures';

const PORTAL = `/appointments/${BOOKING_KEY}/result/patient`;
const LONG = { timeout: 10_000 };
type HistoryAnswers = Parameters<typeof historyRoute>[0];

async function open(url: string, answers: HistoryAnswers = [{ historyAppointments: [releasedHistory(), PENDING_HISTORY] }]) {
  const portal = url.startsWith(PORTAL);
  const fake = resultServer({ results: [releasedResult()], signIn: { sessionType: portal ? 'PATIENT_PORTAL' : 'APPOINTMENT_RESULTS' } });
  const history = historyRoute(answers);
  const app = await renderApp(url, { routes: { ...fake.routes, ...history.routes } });
  return { app, history };
}

const section = async () => {
  const title = await screen.findByRole('heading', { level: 2, name: 'Your earlier results' }, LONG);
  const region = title.closest('section');
  if (!region) throw new Error('no section');
  return within(region);
};

describe('result page: your earlier results (one sign-in)', () => {
  it('should list earlier results with no second form: the released report read first, with its PDFs and images, the other with its release date', async () => {
    const { app, history: route } = await open(`${PORTAL}?dateOfBirth=1991-03-14`);
    const history = await section();
    expect(history.queryByRole('textbox')).toBeNull();
    const list = await history.findByRole('list', { name: 'Earlier results' }, LONG);
    const [chest, abdomen] = within(list).getAllByRole('listitem');
    if (!chest || !abdomen) throw new Error('two entries expected');
    const entry = within(chest);
    expect(entry.getByRole('heading', { level: 3, name: 'XR chest' })).toBeTruthy();
    expect(entry.getByText('Chatswood Imaging')).toBeTruthy();
    // 04:00 UTC is 2:00 pm in Sydney (AEST).
    expect(chest.querySelector('time')?.textContent).toMatch(/3 August 2026.*2:00/);
    expect(entry.getByText('Dr Bea Referrer')).toBeTruthy();
    // The conclusion first, as text (markup shown, never run), then the findings under a plain heading.
    const impression = entry.getByTestId('report-impression');
    expect(within(impression).getByRole('heading', { level: 4, name: "The radiologist's conclusion" })).toBeTruthy();
    expect(impression.textContent).toContain('<i>No</i> acute finding.');
    expect(entry.getByRole('heading', { level: 4, name: 'Findings' })).toBeTruthy();
    expect(entry.queryByText(/FINDINGS:/)).toBeNull();
    expect(entry.getByRole('link', { name: 'View report (PDF)' }).getAttribute('href')).toBe(
      `${app.server.url}/api/results/${BOOKING_KEY}/history/${RELEASED_ID}/report.pdf`,
    );
    expect(entry.getByRole('link', { name: 'Download report (PDF)' }).getAttribute('href')).toMatch(/\/report\.pdf\?download=true$/);
    expect(entry.getByRole('button', { name: 'View images' })).toBeTruthy();
    expect(within(abdomen).getByText(/^This report will be available from .*18 December 2026.*9:00/)).toBeTruthy();
    expect(within(abdomen).queryByRole('link')).toBeNull();
    expect(route.calls.count).toBe(1);
  });

  it('should offer the earlier results on the results e-mail page (/result) too: the same sign-in', async () => {
    await open(`/appointments/${BOOKING_KEY}/result`);
    const history = await section();
    expect(await history.findByRole('list', { name: 'Earlier results' }, LONG)).toBeTruthy();
  });

  it('should say when there are none', async () => {
    await open(PORTAL, [{ historyAppointments: [] }]);
    const history = await section();
    expect(await history.findByText('You have no earlier results with us.', undefined, LONG)).toBeTruthy();
  });

  it('should offer Try again when the list could not be loaded', async () => {
    const { history: route } = await open(PORTAL, [
      (response) => {
        response.statusCode = 500;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ code: 'internal_error', message: 'x' }));
      },
      { historyAppointments: [releasedHistory()] },
    ]);
    const history = await section();
    const alert = await history.findByRole('alert', undefined, LONG);
    expect(alert.textContent).toContain('Your earlier results could not be loaded.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await history.findByRole('list', { name: 'Earlier results' }, LONG)).toBeTruthy();
    expect(route.calls.count).toBe(2);
  });
});
