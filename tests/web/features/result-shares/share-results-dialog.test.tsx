import axe from 'axe-core';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-web/api/client';
import { ShareResultsButton } from '../../../../src-web/features/result-shares/public';
import { formatShareTime } from '../../../../src-web/features/result-shares/share-times';
import { RootStore } from '../../../../src-web/stores/root-store';
import { StoresProvider } from '../../../../src-web/stores/use-stores';
import { json, startApiServer } from '../../helpers/api-server';
import { testConfig } from '../../helpers/test-config';
import { BOOKING_KEY, OPENED, refuse, sharesServer, type SharesServer } from './result-sharing-fixtures';
// antd's Form, Select and Table ask jsdom for matchMedia and ResizeObserver, which it lacks.
import '../../helpers/jsdom-for-antd';

// The first test also pays for transforming antd on first import, hence the generous waits.
const SLOW = { timeout: 20_000 };

async function renderButton(server: SharesServer, options: { type?: 'RESULT' | 'HISTORY'; width?: number } = {}) {
  const http = await startApiServer({
    'GET /api/assets/translations': (_request, response) => json(response, 200, {}),
    ...server.routes,
  });
  if (options.width !== undefined) window.innerWidth = options.width;
  const root = new RootStore({ config: testConfig(), client: createApiClient(http.url), window });
  await root.i18n.init();
  render(
    <StoresProvider value={root}>
      <I18nextProvider i18n={root.i18n.i18n}>
        <main>
          <ShareResultsButton bookingKey={BOOKING_KEY} type={options.type ?? 'RESULT'} />
        </main>
      </I18nextProvider>
    </StoresProvider>,
  );
  return root;
}

/** Opens the dialog with the button and waits for the shares to load. */
async function openDialog(name = 'Share this result') {
  fireEvent.click(await screen.findByRole('button', { name }, SLOW));
  const dialog = await screen.findByRole('dialog', {}, SLOW);
  await within(dialog).findByRole('heading', { name: 'Shared with' }, SLOW);
  // Open means the opening animation is over: the contact field has the focus.
  await waitFor(() => expect(document.activeElement?.id).toBe('share-results_contactDetails'), SLOW);
  return within(dialog);
}

const describedText = (element: HTMLElement): string =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');

describe('share-results dialog', () => {
  it('should open from its button with the focus on the contact field, and list the shares with their access log', async () => {
    await renderButton(sharesServer());
    const dialog = await openDialog();
    expect(screen.getByText('Share your result')).toBeTruthy();
    const contact = dialog.getByLabelText(/Their e-mail address/);
    await waitFor(() => expect(document.activeElement).toBe(contact), SLOW);
    expect(describedText(contact)).toContain('For example name@example.com');
    // The form's own rules speak, not the browser's bubble.
    expect(contact.closest('form')?.noValidate).toBe(true);

    const region = dialog.getByRole('region', { name: 'Your shares' });
    const rows = within(region)
      .getAllByRole('listitem')
      .filter((item) => item.classList.contains('pp-share-row'));
    // Newest first: the SMS share of 20 November, then Ana's of 10 November.
    expect(rows.map((row) => row.querySelector('strong')?.textContent)).toEqual(['+61412345678', 'Ana']);
    expect(within(rows[0] as HTMLElement).getByText('Not opened yet')).toBeTruthy();
    const ana = within(rows[1] as HTMLElement);
    expect(ana.getByText('ana@example.com')).toBeTruthy();
    expect(ana.getByText('Result · by e-mail')).toBeTruthy();
    const last = formatShareTime('2026-11-12T08:30:00.000Z', 'en-AU');
    expect(ana.getByText(`Opened 2 times, last on ${last}`)).toBeTruthy();
    expect(ana.getByText(`Opened on ${formatShareTime('2026-11-11T19:15:00.000Z', 'en-AU')}`)).toBeTruthy();
    expect(ana.getByText(`Expires on ${formatShareTime(OPENED.expiresAtUTC, 'en-AU')}`, { exact: false })).toBeTruthy();
  });

  it('should count every opening while listing only the newest the server sends', async () => {
    await renderButton(sharesServer({ shares: [{ ...OPENED, accessCount: 25 }] }));
    const dialog = await openDialog();
    const last = formatShareTime('2026-11-12T08:30:00.000Z', 'en-AU');
    expect(await dialog.findByText(`Opened 25 times, last on ${last}`, {}, SLOW)).toBeTruthy();
    expect(dialog.getByText('and 23 earlier openings')).toBeTruthy();
  });

  it('should show the problem next to the contact, tied to it, and send nothing (SMS off)', async () => {
    const server = sharesServer();
    await renderButton(server);
    const dialog = await openDialog();
    const contact = dialog.getByLabelText(/Their e-mail address/);
    fireEvent.click(dialog.getByRole('button', { name: 'Share' }));
    expect(await dialog.findByText('Please enter an e-mail address.', {}, SLOW)).toBeTruthy();
    expect(contact.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(contact)).toContain('Please enter an e-mail address.');

    fireEvent.change(contact, { target: { value: '+61412345678' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Share' }));
    expect(await dialog.findByText('Please enter a valid e-mail address.', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(contact), SLOW);
    expect(server.posts).toEqual([]);
  });

  it('should with SMS on take a mobile number, count the note against its limit, and say who gets an SMS', async () => {
    const server = sharesServer({ smsEnabled: true, noteMaxLength: 40 });
    await renderButton(server);
    const dialog = await openDialog();
    const contact = dialog.getByLabelText(/Their e-mail address or mobile number/);
    fireEvent.change(contact, { target: { value: '12345' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Share' }));
    expect(await dialog.findByText('Please enter a valid e-mail address or phone number', {}, SLOW)).toBeTruthy();

    const note = dialog.getByLabelText('A note for them (optional)');
    expect(describedText(note)).toContain('0 of 40 characters');
    fireEvent.change(note, { target: { value: 'See you' } });
    expect(describedText(note)).toContain('7 of 40 characters');
    expect(note.getAttribute('maxlength')).toBe('40');

    fireEvent.change(contact, { target: { value: '+61 412 345 679' } });
    fireEvent.change(dialog.getByLabelText('Their name (optional)'), { target: { value: 'Mum' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Share' }));
    expect(await dialog.findByText('Shared with Mum; they will get an SMS with a link.', {}, SLOW)).toBeTruthy();
    expect(server.posts).toEqual([
      { contactDetails: '+61412345679', contactDetailsType: 'PHONE', contactName: 'Mum', note: 'See you', type: 'RESULT' },
    ]);
    expect((contact as HTMLInputElement).value).toBe('');
  });

  it('should show a refusal from the server in the dialog', async () => {
    const server = sharesServer();
    server.override.create = refuse(404, { code: 'result_not_available', message: 'There is no released report to share yet.' });
    await renderButton(server);
    const dialog = await openDialog();
    fireEvent.change(dialog.getByLabelText(/Their e-mail address/), { target: { value: 'ana@example.com' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Share' }));
    expect((await dialog.findByRole('alert', {}, SLOW)).textContent).toBe('There is no released report to share yet.');
  });

  it('should revoke after a yes, with the focus on No while asking', async () => {
    const server = sharesServer();
    await renderButton(server);
    const dialog = await openDialog();
    fireEvent.click(dialog.getByRole('button', { name: 'Revoke access for Ana' }));
    const no = dialog.getByRole('button', { name: 'No' });
    await waitFor(() => expect(document.activeElement).toBe(no), SLOW);
    fireEvent.click(no);
    await waitFor(() => expect(document.activeElement).toBe(dialog.getByRole('button', { name: 'Revoke access for Ana' })), SLOW);
    expect(server.revokes).toEqual([]);

    fireEvent.click(dialog.getByRole('button', { name: 'Revoke access for Ana' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Yes, revoke' }));
    const revoked = await dialog.findByText(`Revoked on ${formatShareTime('2026-11-25T12:00:00.000Z', 'en-AU')}`, {}, SLOW);
    await waitFor(() => expect(document.activeElement).toBe(revoked), SLOW);
    expect(server.revokes).toEqual([OPENED.id]);
    expect(dialog.queryByRole('button', { name: 'Revoke access for Ana' })).toBeNull();
  });

  it('should pass axe on the open dialog with an error and a confirmation showing (contrast is checked in the browser)', async () => {
    await renderButton(sharesServer({ smsEnabled: true }));
    const dialog = await openDialog();
    fireEvent.click(dialog.getByRole('button', { name: 'Share' }));
    await dialog.findByText('Please enter a valid e-mail address or phone number', {}, SLOW);
    fireEvent.click(dialog.getByRole('button', { name: 'Revoke access for Ana' }));
    const modal = document.querySelector<HTMLElement>('.pp-share-dialog');
    if (!modal) throw new Error('no dialog');
    const results = await axe.run(modal, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });

  it.each([
    [375, '450px'],
    [1024, '600px'],
  ])(
    'should at %i px wide give the dialog body a height of %s',
    async (width, height) => {
      await renderButton(sharesServer(), { width });
      await openDialog();
      const body = document.querySelector<HTMLElement>('.pp-share-dialog .ant-modal-body');
      expect(body?.style.height).toBe(height);
    },
    20_000,
  );

  it('should give the focus back to the button when closed', async () => {
    await renderButton(sharesServer(), { type: 'HISTORY' });
    const dialog = await openDialog('Share my history');
    expect(screen.getByText('Share your history')).toBeTruthy();
    await act(async () => {
      fireEvent.click(dialog.getAllByRole('button', { name: 'Close' })[0] as HTMLElement);
    });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Share my history' })), SLOW);
  });
});
