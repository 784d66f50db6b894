import axe from 'axe-core';
import { render, screen } from '@testing-library/react';
import QRCode from 'qrcode';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { bookingKeyFromCode } from '@contract/booking-code';
import { createApiClient } from '../../../../src-web/api/client';
import { BookingCodeBox } from '../../../../src-web/features/booking-code/booking-code-box';
import { RootStore } from '../../../../src-web/stores/root-store';
import { StoresProvider } from '../../../../src-web/stores/use-stores';
import { json, startApiServer } from '../../helpers/api-server';
import { testConfig } from '../../helpers/test-config';

// The booking code box (src-web/features/booking-code/): the QR code of the appointment link, the
// key in text, and what it is for people who cannot see it.

const KEY = 'RXizpOy124eIE3xqxwcjKA';
/** The SVG inside the image's data address. */
function svgOf(image: HTMLElement): string {
  const src = image.getAttribute('src') ?? '';
  expect(src.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
  return decodeURIComponent(src.slice('data:image/svg+xml;charset=utf-8,'.length));
}

async function renderBox(locale: 'en' | 'mk' = 'en') {
  const http = await startApiServer({ 'GET /api/assets/translations': (_request, response) => json(response, 200, {}) });
  const root = new RootStore({ config: testConfig(), client: createApiClient(http.url), window });
  await root.i18n.init();
  if (locale !== 'en') await root.i18n.setLocale(locale);
  return render(
    <StoresProvider value={root}>
      <I18nextProvider i18n={root.i18n.i18n}>
        <BookingCodeBox bookingKey={KEY} />
      </I18nextProvider>
    </StoresProvider>,
  );
}

describe('BookingCodeBox', () => {
  it('draws the QR code of the appointment link on this portal, which the kiosk reads the key from', async () => {
    await renderBox();
    const image = await screen.findByRole('img', { name: 'QR code of your booking, to scan at the kiosk' });
    const payload = `${window.location.origin}/a/${KEY}`;
    const expected = await QRCode.toString(payload, {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: 2,
      color: { dark: '#000000', light: '#ffffff' },
    });
    expect(svgOf(image)).toBe(expected);
    expect(bookingKeyFromCode(payload)).toBe(KEY);
    // Nothing but the link: no name, no date.
    expect(payload).toBe(`http://localhost:3000/a/${KEY}`);
  });

  it('shows the code as an image with a name, the key grouped for reading, and how to use it', async () => {
    const view = await renderBox();
    expect(await screen.findByRole('img', { name: 'QR code of your booking, to scan at the kiosk' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your booking code' })).toBeTruthy();
    expect(view.container.querySelector('code')?.textContent).toBe('RXiz pOy1 24eI E3xq xwcj KA');
    expect(screen.getByText('Scan this at the kiosk to check in.')).toBeTruthy();
    const results = await axe.run(view.container);
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('speaks Macedonian', async () => {
    await renderBox('mk');
    expect(await screen.findByText('Скенирајте го ова на киоскот за да се пријавите.')).toBeTruthy();
  });
});
