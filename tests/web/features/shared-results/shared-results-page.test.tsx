import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, type RenderedApp } from '../../helpers/render-app';
import { answer, CODE, DATE_OF_BIRTH } from '../patient-access/patient-access-fixtures';
import { RESULT_ID, SHARE_TOKEN, sharedResults, sharedServer, type SharedServerOptions } from './shared-results-fixtures';

async function open(options: SharedServerOptions = {}, url = `/results/shared#${SHARE_TOKEN}`) {
  const fake = sharedServer(options);
  const app = await renderApp(url, { routes: fake.routes });
  return { app, fake };
}

const location = (app: RenderedApp) => `${app.router.state.location.pathname}${app.router.state.location.search}`;
const LONG = { timeout: 10_000 };

describe('shared results page', () => {
  it('should take a contact from the link through the shared sign-in (date of birth only, then the code) to the shared report', async () => {
    const { app, fake } = await open();
    // Not signed in: the sign-in page for shared results, with the results-of-others wording.
    await waitFor(() => expect(location(app)).toBe('/authentication?returnUrl=%2Fresults%2Fshared&shared=true'), LONG);
    expect(await screen.findByRole('heading', { level: 1, name: 'Open results shared with you' }, LONG)).toBeTruthy();
    expect(screen.getByText(/You are accessing results of others/)).toBeTruthy();
    // No contact number for a share link; the token never went into a URL.
    expect(screen.queryByLabelText(/Contact number/)).toBeNull();
    expect(app.server.requests.some((request) => request.url.includes(SHARE_TOKEN))).toBe(false);

    fireEvent.change(screen.getByLabelText('Their date of birth'), { target: { value: DATE_OF_BIRTH } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText('One-time code', {}, LONG), { target: { value: CODE } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('Liam E. has shared their results with you', {}, LONG)).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/results/shared');
    expect(fake.signIn.bodies[0]).toEqual({ path: 'shared', body: { shareToken: SHARE_TOKEN, dateOfBirth: DATE_OF_BIRTH } });
  });

  it('should show the shared report read-only: exam, report as text, PDFs and images, no share or history form', async () => {
    const { app } = await open({ shared: [sharedResults()] });
    expect(await screen.findByRole('heading', { level: 2, name: 'MRI knee' }, LONG)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Results shared with you' })).toBeTruthy();
    expect(screen.getByText('Liam E. has shared their results with you')).toBeTruthy();
    // The fragment left the address bar.
    expect(app.router.state.location.hash).toBe('');
    // The conclusion first, as text (markup shown, never run), then the findings.
    const report = screen.getByTestId('report-text');
    expect(within(report).getByTestId('report-impression').textContent).toContain('<b>Normal</b> study.');
    expect(within(report).getByRole('heading', { level: 3, name: 'Findings' })).toBeTruthy();
    expect(report.textContent).toContain('No tear of the menisci.');
    expect(report.querySelector('b')).toBeNull();
    expect(screen.getByText('Dr Alice Referrer')).toBeTruthy();
    const view = screen.getByRole('link', { name: 'View report (PDF)' });
    expect(view.getAttribute('href')).toBe(`${app.server.url}/api/shared-results/${RESULT_ID}/report.pdf`);
    expect(view.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: 'Download report (PDF)' }).getAttribute('href')).toBe(
      `${app.server.url}/api/shared-results/${RESULT_ID}/report.pdf?download=true`,
    );
    expect(screen.getByRole('button', { name: 'View images' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /share/i })).toBeNull();
    expect(screen.queryByText('Your earlier results')).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('should say the link is not complete for a cut-off token', async () => {
    await open({}, `/results/shared#${SHARE_TOKEN.slice(0, 30)}`);
    const alert = await screen.findByRole('alert', {}, LONG);
    expect(alert.textContent).toBe('This link is not complete. Please open it again from the e-mail or SMS.');
  });

  it('should go to the deny page with the revoked message when the share was withdrawn', async () => {
    const { app } = await open({ shared: [answer(410, { code: 'share_revoked', message: 'gone' })] });
    await waitFor(() => expect(location(app)).toBe('/deny?revoked=true'), LONG);
  });

  it('should go to the deny page with the expired message when the share ran out (embedded)', async () => {
    const { app } = await open(
      { shared: [answer(410, { code: 'share_expired', message: 'gone' })] },
      `/iframe/results/shared#${SHARE_TOKEN}`,
    );
    await waitFor(() => expect(location(app)).toBe('/iframe/deny?resultsExpired=true'), LONG);
  });
});
