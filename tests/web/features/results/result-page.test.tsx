import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reportParagraphs } from '../../../../src-web/features/results/result-page';
import { renderApp, type RenderedApp } from '../../helpers/render-app';
import { answer } from '../patient-access/patient-access-fixtures';
import {
  BOOKING_KEY,
  NOT_AVAILABLE,
  NOT_RELEASED,
  releasedResult,
  resultServer,
  viewerAnswer,
  type ResultServerOptions,
} from './results-fixtures';

const PAGE = `/appointments/${BOOKING_KEY}/result`;

async function open(options: ResultServerOptions = {}, url = PAGE) {
  const fake = resultServer(options);
  const app = await renderApp(url, { routes: fake.routes });
  return { app, fake };
}

const location = (app: RenderedApp) => `${app.router.state.location.pathname}${app.router.state.location.search}`;

/** The page's chunk and texts load lazily: the first test may take longer than findBy's default second. */
const heading = (name: string) => screen.findByRole('heading', { level: 2, name }, { timeout: 10_000 });

describe('result page: a released report', () => {
  it('should head the page with the exam, the clinic and the exam date in the clinic zone', async () => {
    await open();
    await heading('MRI knee');
    expect(screen.getByRole('heading', { level: 1, name: 'Your results' })).toBeTruthy();
    expect(screen.getByText('Parramatta Imaging')).toBeTruthy();
    const date = screen.getByTestId('result-exam-date');
    expect(date.getAttribute('datetime')).toBe('2026-11-30T22:30:00.000Z');
    // 22:30 UTC is 9:30 am the next day in Sydney (AEDT).
    expect(date.textContent).toMatch(/Tuesday,? 1 December 2026/);
    expect(date.textContent).toMatch(/9:30/);
    expect(date.textContent).toMatch(/AEDT|GMT\+11/);
  });

  it('should read impression first: the conclusion set apart, then the sections under plain headings, as text (never HTML)', async () => {
    await open();
    await heading('Your report');
    const text = screen.getByTestId('report-text');
    const impression = within(text).getByTestId('report-impression');
    expect(within(impression).getByRole('heading', { level: 3, name: "The radiologist's conclusion" })).toBeTruthy();
    expect(impression.textContent).toContain('Normal study.');
    const history = within(text).getByRole('heading', { level: 3, name: 'Why the scan was done' });
    const findings = within(text).getByRole('heading', { level: 3, name: 'Findings' });
    // The conclusion comes before everything else in the page's order.
    expect(impression.compareDocumentPosition(history) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(history.compareDocumentPosition(findings) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(text.textContent).not.toMatch(/FINDINGS:|CONCLUSION:|CLINICAL HISTORY:/);
    expect(text.textContent).toContain('Knee pain after a fall.');
    expect(text.textContent).toContain('<b>Not bold</b> <script>window.pwned = true</script>');
    expect(text.querySelector('b, script')).toBeNull();
    expect(screen.getByText('Dr Alice Referrer')).toBeTruthy();
    expect(screen.getByText('3 December 2026')).toBeTruthy();
  });

  it('should explain a glossary term on tap: a button that opens its definition, and Escape closes it', async () => {
    await open();
    await heading('Your report');
    const term = await screen.findByRole('button', { name: 'menisci, show what it means' }, { timeout: 10_000 });
    expect(term.textContent).toBe('menisci');
    expect(term.getAttribute('aria-expanded')).toBe('false');
    const definition = document.getElementById(term.getAttribute('aria-controls') ?? '');
    expect(definition?.hidden).toBe(true);
    fireEvent.click(term);
    expect(term.getAttribute('aria-expanded')).toBe('true');
    expect(definition?.hidden).toBe(false);
    expect(definition?.textContent).toContain('A C-shaped pad of cartilage in the knee');
    // The term starts the definition as a sentence does: its first letter only in capitals.
    expect(definition?.querySelector('strong')?.textContent).toBe('Meniscus');
    fireEvent.keyDown(term, { key: 'Escape' });
    expect(term.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByText(/Words with a dotted underline are explained/)).toBeTruthy();
  });

  it('should link the PDF to view in a new tab (noopener) and to download', async () => {
    const { app } = await open();
    await heading('Your report');
    const view = screen.getByRole('link', { name: 'View report (PDF)' });
    expect(view.getAttribute('href')).toBe(`${app.server.url}/api/results/${BOOKING_KEY}/report.pdf`);
    expect(view.getAttribute('target')).toBe('_blank');
    expect(view.getAttribute('rel')).toContain('noopener');
    expect(screen.getByText('The report opens in a new tab.').id).toBe(view.getAttribute('aria-describedby'));
    const download = screen.getByRole('link', { name: 'Download report (PDF)' });
    expect(download.getAttribute('href')).toBe(`${app.server.url}/api/results/${BOOKING_KEY}/report.pdf?download=true`);
  });

  it('should offer View images only when the report has a study', async () => {
    await open({ results: [releasedResult({ imageViewerLink: null })] });
    await heading('Your report');
    expect(screen.queryByRole('button', { name: 'View images' })).toBeNull();
  });

  it('should say when no images URL could be made, as an alert', async () => {
    await open({ viewer: [viewerAnswer({ url: null })] });
    await heading('Your report');
    fireEvent.click(screen.getByRole('button', { name: 'View images' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'We could not prepare your images right now. Please try again later or contact the clinic.',
    );
  });

  it('should say the patient has no access to the images on a 403', async () => {
    await open({ viewer: [answer(403, { code: 'forbidden', message: 'No' })] });
    await heading('Your report');
    fireEvent.click(screen.getByRole('button', { name: 'View images' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You do not have access to these images. Please contact the clinic.');
  });

  it('should go to /deny with the results-expired message when the link has expired', async () => {
    const expired = viewerAnswer({ url: null, imageViewerLinkStatus: 'EXPIRED', redirectUrl: '/deny?resultsExpired=true' });
    const { app } = await open({ viewer: [expired] }, `/iframe${PAGE}`);
    await heading('Your report');
    expect(screen.getByText('Your images open in a new tab.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'View images' }));
    await waitFor(() => expect(location(app)).toBe('/iframe/deny?resultsExpired=true'));
    expect(await screen.findByText('Access to these results has expired.')).toBeTruthy();
  });
});

describe('result page: other states', () => {
  it('should say when the report will be available, in the clinic zone', async () => {
    await open({ results: [NOT_RELEASED] });
    await heading('MRI knee');
    expect(screen.getByText(/^Your report will be available from Thursday,? 10 December 2026.*9:00.*(AEDT|GMT\+11)\.$/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'View report (PDF)' })).toBeNull();
  });

  it('should say the report is not available yet', async () => {
    await open({ results: [NOT_AVAILABLE] });
    await heading('MRI knee');
    expect(screen.getByText('Your report is not available yet. We will let you know when it is ready.')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 2, name: 'Your report' })).toBeNull();
  });

  it('should show a load failure with Try again, which loads the result', async () => {
    await open({ results: [answer(500, { code: 'internal_error', message: 'Oops' }), NOT_AVAILABLE] });
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain('Your result could not be loaded.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await heading('MRI knee');
  });

  it('should send a patient without a session to sign in for results, and the patient portal link with its hints', async () => {
    const { app } = await open({ signIn: { signedIn: false } });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/authentication'));
    expect(new URLSearchParams(app.router.state.location.search).get('type')).toBe('APPOINTMENT_RESULTS');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to see your results' }, { timeout: 10_000 })).toBeTruthy();
  });

  it('should prefill the date of birth from the patient portal link on the sign-in page', async () => {
    const portal = `${PAGE}/patient?dateOfBirth=1991-03-14&otpType=EMAIL`;
    const { app } = await open({ signIn: { signedIn: false } }, portal);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/authentication'));
    const query = new URLSearchParams(app.router.state.location.search);
    expect([query.get('type'), query.get('returnUrl'), query.get('dateOfBirth'), query.get('otpType')]).toEqual([
      'PATIENT_PORTAL',
      portal,
      '1991-03-14',
      'EMAIL',
    ]);
    expect(((await screen.findByLabelText('Date of birth', {}, { timeout: 10_000 })) as HTMLInputElement).value).toBe('1991-03-14');
  });
});

describe('reportParagraphs', () => {
  it('should split on blank lines, keep single line breaks and drop empty paragraphs', () => {
    expect(reportParagraphs('A\r\nB\r\n\r\n  \n\nC\n \t\nD\n')).toEqual(['A\nB', 'C', 'D']);
    expect(reportParagraphs('')).toEqual([]);
  });
});
