import '../../helpers/jsdom-for-antd';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { KIOSK_MESSAGES } from '@contract/api/kiosks';
import { json } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
import { STAFF_USER } from '../../helpers/staff-users';
import { testConfig } from '../../helpers/test-config';
import { ENROLLED, KIOSK_ADMIN, kiosksServer, UNPLACED } from './staff-kiosks-fixtures';

const PAGE = '/staff/kiosks';

async function openPage(server = kiosksServer(), url = PAGE) {
  const app = await renderApp(url, { routes: server.routes, staffUser: KIOSK_ADMIN });
  // The page is a lazy chunk: on a loaded machine it can take seconds to arrive.
  await screen.findByRole('heading', { level: 2, name: /^Kiosks/ }, { timeout: 10_000 });
  // antd's table comes with its theme, lazily.
  await screen.findByRole('table', { name: /^Kiosks/ }, { timeout: 10_000 });
  return app;
}

const nameCell = (name: string) => screen.queryByText(name, { selector: '.pp-staff-kiosk-name' });

const row = (name: string) => {
  const item = nameCell(name)?.closest('tr');
  if (!item) throw new Error(`no row for ${name}`);
  return within(item);
};

/** The table's rows, as name and clinic. */
const namesAndClinics = () =>
  [...document.querySelectorAll('.pp-staff-kiosk-table tbody tr[data-kiosk-id]')].map((tr) =>
    [...tr.querySelectorAll('td')].slice(0, 2).map((cell) => cell.textContent),
  );

describe('staff kiosk page', () => {
  it('should list the kiosks by clinic with their state, enrolled and last-seen times, the kiosks at no clinic last', async () => {
    await openPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Lobby kiosks' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: /^Kiosks/ }).textContent).toBe('Kiosks (2 kiosks)');
    expect(namesAndClinics()).toEqual([
      [ENROLLED.name, 'Parramatta'],
      [UNPLACED.name, 'No clinic'],
    ]);

    const enrolled = row(ENROLLED.name);
    expect(enrolled.getByText('Enrolled')).toBeTruthy();
    // In the clinic's zone (Sydney, AEDT): 9:00 am and 10:30 am on 19 March.
    expect(enrolled.getByText(/19 Mar 2026.*9:00.*AEDT/)).toBeTruthy();
    expect(enrolled.getByText(/19 Mar 2026.*10:30.*AEDT/)).toBeTruthy();
    expect(enrolled.getByText(/keeps working as it is until it enrolls with the new code/)).toBeTruthy();

    // The kiosk app's heartbeat.
    expect(enrolled.getByText('1.4.2')).toBeTruthy();
    expect(enrolled.getByText('2 hours')).toBeTruthy();
    expect(enrolled.getByText(/19 Mar 2026.*9:40.*AEDT: renderer gone: crashed/)).toBeTruthy();
    expect(enrolled.getByText(/19 Mar 2026.*10:25.*AEDT/)).toBeTruthy();

    const pending = row(UNPLACED.name);
    expect(pending.getByText('Pending enrollment')).toBeTruthy();
    // Never seen; not enrolled, so no enrolment time.
    expect(pending.getAllByText('Never')).toHaveLength(1);
    expect(pending.queryByText('App version')).toBeNull();
  });

  it('should say in words that an enrolled kiosk is silent', async () => {
    await openPage(kiosksServer([{ ...ENROLLED, silent: true }]));
    expect(row(ENROLLED.name).getByText('Enrolled, but silent: nothing heard from it for over 5 minutes')).toBeTruthy();
  });

  it('should refuse a name outside 1 to 80 characters with the contract message and send nothing', async () => {
    const server = kiosksServer();
    await openPage(server);
    const name = screen.getByLabelText('Kiosk name');
    fireEvent.click(screen.getByRole('button', { name: 'Add kiosk' }));
    expect(await screen.findByText(KIOSK_MESSAGES.name)).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);

    fireEvent.change(name, { target: { value: 'x'.repeat(81) } });
    fireEvent.click(screen.getByRole('button', { name: 'Add kiosk' }));
    expect(screen.getByText(KIOSK_MESSAGES.name)).toBeTruthy();
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add kiosk' }));
    expect(screen.getByText(KIOSK_MESSAGES.name)).toBeTruthy();
    expect(server.posts).toEqual([]);
  });

  it('should add a kiosk at a clinic and show its one-time code once, large, with its expiry; buttons wait meanwhile', async () => {
    const server = kiosksServer();
    const held: (() => void)[] = [];
    server.override['POST /api/staff/kiosks'] = (_request, _response, proceed) => held.push(proceed);
    await openPage(server);
    fireEvent.change(screen.getByLabelText('Kiosk name'), { target: { value: '  Parramatta lobby 2 ' } });
    fireEvent.change(screen.getByLabelText('Clinic (optional)'), { target: { value: 'parramatta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add kiosk' }));

    await waitFor(() => expect((screen.getByRole('button', { name: 'Add kiosk' }) as HTMLButtonElement).disabled).toBe(true));
    expect((screen.getByRole('button', { name: `Revoke ${ENROLLED.name}` }) as HTMLButtonElement).disabled).toBe(true);
    // The server holds its answer until the page has shown the wait.
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]?.();

    const panel = within(await screen.findByTestId('staff-kiosk-enrollment-code'));
    expect(panel.getByRole('heading', { name: 'Enrollment code for Parramatta lobby 2' })).toBe(document.activeElement);
    expect(panel.getByTestId('staff-kiosk-code').textContent).toBe('7KQ3-M9XD');
    expect(panel.getByText(/shown only once/)).toBeTruthy();
    expect(panel.getByText(/It expires on 20 Mar 2026.*10:45.*AEDT/)).toBeTruthy();
    expect(server.posts).toEqual([{ path: '/api/staff/kiosks', body: { name: 'Parramatta lobby 2', clinicSlug: 'parramatta' } }]);

    const added = row('Parramatta lobby 2');
    expect(added.getByText('Pending enrollment')).toBeTruthy();
    expect(added.getByText('Parramatta')).toBeTruthy();
    // The code is in its row too, with a copy button of its own.
    expect(added.getByText('7KQ3-M9XD')).toBeTruthy();
    expect(added.getByRole('button', { name: 'Copy the enrollment code of Parramatta lobby 2' })).toBeTruthy();
    expect((screen.getByLabelText('Kiosk name') as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('button', { name: 'Add kiosk' }) as HTMLButtonElement).disabled).toBe(false);

    // The printable sheet: the code as a QR code (its text only) and in letters, for the printer.
    const sheet = document.querySelector('.pp-enrollment-sheet') as HTMLElement;
    const qr = (await within(sheet).findByRole('img', { hidden: true }, { timeout: 10_000 })) as HTMLImageElement;
    expect(qr.alt).toBe('QR code of the enrollment code');
    expect(decodeURIComponent(qr.src)).toMatch(/^data:image\/svg\+xml;charset=utf-8,<svg /);
    expect(sheet.textContent).toContain('7KQ3-M9XD');
    expect(sheet.textContent).toContain('Parramatta lobby 2');
    // This test browser has no clipboard: the page says so instead of failing silently.
    fireEvent.click(panel.getByRole('button', { name: 'Copy code' }));
    expect(await panel.findByText(/could not be copied here/)).toBeTruthy();
    expect(panel.getByRole('button', { name: 'Print enrollment sheet' })).toBeTruthy();

    fireEvent.click(panel.getByRole('button', { name: 'Done, hide the code' }));
    expect(screen.queryByTestId('staff-kiosk-code')).toBeNull();
    expect(row('Parramatta lobby 2').queryByText('7KQ3-M9XD')).toBeNull();
  });

  it('should give an enrolled kiosk a new code without changing its state', async () => {
    const server = kiosksServer();
    await openPage(server);
    fireEvent.click(screen.getByRole('button', { name: `New enrollment code for ${ENROLLED.name}` }));
    expect((await screen.findByTestId('staff-kiosk-code')).textContent).toBe('7KQ3-M9XD');
    expect(server.posts.map((post) => post.path)).toEqual([`/api/staff/kiosks/${ENROLLED.id}/enrollment-code`]);
    expect(row(ENROLLED.name).getByText('Enrolled')).toBeTruthy();
  });

  it('should revoke only after Yes, then show the kiosk as Revoked without a Revoke button', async () => {
    const server = kiosksServer();
    await openPage(server);
    fireEvent.click(screen.getByRole('button', { name: `Revoke ${ENROLLED.name}` }));
    let dialog = within(screen.getByRole('alertdialog', { name: `Revoke ${ENROLLED.name}?` }));
    expect(dialog.getByText(/stops working at once/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'No, keep it' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(server.posts).toEqual([]);
    expect(row(ENROLLED.name).getByText('Enrolled')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: `Revoke ${ENROLLED.name}` }));
    dialog = within(screen.getByRole('alertdialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Yes, revoke' }));
    expect(await screen.findByText(`${ENROLLED.name} is revoked.`)).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(row(ENROLLED.name).getByText('Revoked')).toBeTruthy();
    expect(screen.queryByRole('button', { name: `Revoke ${ENROLLED.name}` })).toBeNull();
    expect(server.posts.map((post) => post.path)).toEqual([`/api/staff/kiosks/${ENROLLED.id}/revoke`]);
  });

  it.each([
    [404, 'revoke', { code: 'not_found', message: 'This kiosk was not found.' }],
    [409, 'enrollment-code', { code: 'conflict', message: 'This kiosk changed meanwhile; reload the page.' }],
    [400, 'create', { code: 'validation_failed', message: 'There is no clinic with this name.' }],
  ])('should show the server message of a %i (%s) and change nothing', async (status, action, body) => {
    const server = kiosksServer();
    const key =
      action === 'create' ? 'POST /api/staff/kiosks' : `POST /api/staff/kiosks/${ENROLLED.id}/${action === 'revoke' ? 'revoke' : action}`;
    server.override[key] = (_request, response) => json(response, status, body);
    await openPage(server);
    if (action === 'create') {
      fireEvent.change(screen.getByLabelText('Kiosk name'), { target: { value: 'Lobby 3' } });
      fireEvent.click(screen.getByRole('button', { name: 'Add kiosk' }));
    } else if (action === 'revoke') {
      fireEvent.click(screen.getByRole('button', { name: `Revoke ${ENROLLED.name}` }));
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes, revoke' }));
    } else fireEvent.click(screen.getByRole('button', { name: `New enrollment code for ${ENROLLED.name}` }));

    expect((await screen.findByRole('alert')).textContent).toBe(body.message);
    expect(screen.queryByTestId('staff-kiosk-code')).toBeNull();
    expect(nameCell('Lobby 3')).toBeNull();
    expect(row(ENROLLED.name).getByText('Enrolled')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add kiosk' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('should say the action failed, and change nothing, when the server is unavailable', async () => {
    const server = kiosksServer();
    server.override[`POST /api/staff/kiosks/${UNPLACED.id}/enrollment-code`] = (_request, response) =>
      json(response, 503, { code: 'service_unavailable', message: 'Unavailable' });
    await openPage(server);
    fireEvent.click(screen.getByRole('button', { name: `New enrollment code for ${UNPLACED.name}` }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That could not be done right now, and nothing was changed. Please try again.',
    );
    expect(row(UNPLACED.name).getByText('Pending enrollment')).toBeTruthy();
  });
});

describe('staff kiosk page without access', () => {
  it('should ask a signed-out person to sign in as staff, with the sign-in button when sign-in is set up', async () => {
    const server = kiosksServer();
    server.override['GET /api/staff/kiosks'] = (_request, response) =>
      json(response, 401, { code: 'unauthorized', message: 'Please sign in with your organisation account.' });
    const config = testConfig({
      app: { identityClientId: 'portal-web', identityAuthority: 'https://idp.test/tenant', identityScope: 'api://portal/.default' },
    });
    const app = await renderApp(PAGE, { routes: server.routes, config });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Staff sign-in is needed to manage the kiosks.');
    expect(within(alert).getByRole('button', { name: 'Sign in as staff' })).toBeTruthy();
    expect(screen.queryByLabelText('Kiosk name')).toBeNull();
    expect(app.router.state.location.pathname).toBe(PAGE);
  });

  it('should tell a staff member without the kiosk administrator role so, with the server message', async () => {
    const server = kiosksServer();
    server.override['GET /api/staff/kiosks'] = (_request, response) =>
      json(response, 403, { code: 'forbidden', message: 'Your account may not do that.' });
    await renderApp(PAGE, { routes: server.routes, staffUser: STAFF_USER });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('You need the kiosk administrator role to manage the kiosks.');
    expect(alert.textContent).toContain('Your account may not do that.');
    expect(screen.queryByRole('heading', { name: /^Kiosks/ })).toBeNull();
    expect(screen.queryByLabelText('Kiosk name')).toBeNull();
  });

  it('should offer Try again when the list cannot be loaded, and show it once the server answers', async () => {
    const server = kiosksServer();
    let failures = 1;
    server.override['GET /api/staff/kiosks'] = (_request, response, proceed) => {
      if (failures-- > 0) json(response, 503, { code: 'service_unavailable', message: 'Unavailable' });
      else proceed();
    };
    await renderApp(PAGE, { routes: server.routes, staffUser: KIOSK_ADMIN });
    expect((await screen.findByRole('alert')).textContent).toContain('The kiosks could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(ENROLLED.name, { selector: '.pp-staff-kiosk-name' }, { timeout: 10_000 })).toBeTruthy();
  });
});

describe('staff kiosk page inside /iframe', () => {
  it('should show the kiosks in the embedded layout too', async () => {
    await openPage(kiosksServer(), `/iframe${PAGE}`);
    expect(nameCell(ENROLLED.name)).toBeTruthy();
    expect(document.querySelector('footer')).toBeNull();
  });
});
