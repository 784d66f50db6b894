import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../helpers/render-app';
import { NO_MATCH, patientMatchRoute, PENDING_HISTORY, RELEASED_ID, releasedHistory } from './history-fixtures';
import { BOOKING_KEY, releasedResult, resultServer } from './results-fixtures';

const PORTAL = `/appointments/${BOOKING_KEY}/result/patient`;
const LONG = { timeout: 10_000 };
type MatchAnswers = Parameters<typeof patientMatchRoute>[0];

async function open(url: string, answers: MatchAnswers = [{ historyAppointments: [releasedHistory(), PENDING_HISTORY] }]) {
  const portal = url.startsWith(PORTAL);
  const fake = resultServer({ results: [releasedResult()], signIn: { sessionType: portal ? 'PATIENT_PORTAL' : 'APPOINTMENT_RESULTS' } });
  const match = patientMatchRoute(answers);
  const app = await renderApp(url, { routes: { ...fake.routes, ...match.routes } });
  return { app, match };
}

const section = async () => {
  const title = await screen.findByRole('heading', { level: 2, name: 'Your earlier results' }, LONG);
  const region = title.closest('section');
  if (!region) throw new Error('no section');
  return within(region);
};

describe('result page: your earlier results (patient portal)', () => {
  it('should show the match form below the result, the date of birth prefilled from the link, e-mail or phone as a labelled choice', async () => {
    await open(`${PORTAL}?dateOfBirth=1991-03-14&otpType=EMAIL`);
    const history = await section();
    expect((history.getByLabelText('Date of birth') as HTMLInputElement).value).toBe('1991-03-14');
    const group = history.getByRole('group', { name: 'Confirm it is you with your' });
    expect(within(group).getByRole('radio', { name: 'E-mail address' })).toHaveProperty('checked', true);
    expect(history.getByLabelText('E-mail address', { selector: 'input[type=email]' })).toBeTruthy();
    fireEvent.click(within(group).getByRole('radio', { name: 'Phone number' }));
    expect(history.getByLabelText('Phone number', { selector: 'input[type=tel]' })).toBeTruthy();
    expect(history.queryByLabelText('E-mail address', { selector: 'input[type=email]' })).toBeNull();
  });

  it('should name the problem next to the field and send nothing while the form is not valid', async () => {
    const { match } = await open(PORTAL);
    const history = await section();
    fireEvent.click(history.getByRole('button', { name: 'Show my earlier results' }));
    expect(await history.findByText('Please enter your date of birth.')).toBeTruthy();
    expect(history.getByText('Please enter your e-mail address.')).toBeTruthy();
    const email = history.getByLabelText('E-mail address', { selector: 'input[type=email]' });
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe('pp-history-email-problem');
    expect(document.activeElement).toBe(history.getByLabelText('Date of birth'));
    expect(match.bodies).toEqual([]);
  });

  it('should list earlier results: the released report as text with its PDFs and images, the other with its release date', async () => {
    const { app, match } = await open(`${PORTAL}?dateOfBirth=1991-03-14`);
    const history = await section();
    fireEvent.change(history.getByLabelText('E-mail address', { selector: 'input[type=email]' }), {
      target: { value: 'liam.example@example.com' },
    });
    fireEvent.click(history.getByRole('button', { name: 'Show my earlier results' }));
    const list = await history.findByRole('list', { name: 'Earlier results' });
    const [chest, abdomen] = within(list).getAllByRole('listitem');
    if (!chest || !abdomen) throw new Error('two entries expected');
    const entry = within(chest);
    expect(entry.getByRole('heading', { level: 3, name: 'XR chest' })).toBeTruthy();
    expect(entry.getByText('Chatswood Imaging')).toBeTruthy();
    // 04:00 UTC is 2:00 pm in Sydney (AEST).
    expect(chest.querySelector('time')?.textContent).toMatch(/3 August 2026.*2:00/);
    expect(entry.getByText('Dr Bea Referrer')).toBeTruthy();
    const paragraphs = within(entry.getByTestId('report-text'))
      .getAllByText(/./, { selector: 'p' })
      .map((paragraph) => paragraph.textContent);
    expect(paragraphs).toEqual(['FINDINGS:\nClear lungs.', 'IMPRESSION:\n<i>No</i> acute finding.']);
    expect(entry.getByRole('link', { name: 'View report (PDF)' }).getAttribute('href')).toBe(
      `${app.server.url}/api/results/${BOOKING_KEY}/history/${RELEASED_ID}/report.pdf`,
    );
    expect(entry.getByRole('link', { name: 'Download report (PDF)' }).getAttribute('href')).toMatch(/\/report\.pdf\?download=true$/);
    expect(entry.getByRole('button', { name: 'View images' })).toBeTruthy();
    expect(within(abdomen).getByText(/^This report will be available from .*18 December 2026.*9:00/)).toBeTruthy();
    expect(within(abdomen).queryByRole('link')).toBeNull();
    expect(match.bodies).toEqual([{ dateOfBirth: '1991-03-14', email: 'liam.example@example.com' }]);
  });

  it('should say so when no earlier results match the details (404 patient_matching_error)', async () => {
    await open(`${PORTAL}?dateOfBirth=1991-03-14`, [NO_MATCH]);
    const history = await section();
    fireEvent.click(history.getByRole('radio', { name: 'Phone number' }));
    fireEvent.change(history.getByLabelText('Phone number', { selector: 'input[type=tel]' }), { target: { value: '0400000000' } });
    fireEvent.click(history.getByRole('button', { name: 'Show my earlier results' }));
    const alert = await history.findByRole('alert');
    expect(alert.textContent).toBe('We could not find earlier results for these details.');
  });

  it('should not offer earlier results on the results e-mail page (/result)', async () => {
    await open(`/appointments/${BOOKING_KEY}/result`);
    await screen.findByRole('heading', { level: 2, name: 'Your report' }, LONG);
    expect(screen.queryByRole('heading', { name: 'Your earlier results' })).toBeNull();
    expect(screen.queryByLabelText('E-mail address')).toBeNull();
  });
});
