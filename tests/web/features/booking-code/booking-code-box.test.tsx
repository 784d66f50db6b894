import axe from 'axe-core';
import { render, screen } from '@testing-library/react';
import jsQR from 'jsqr';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { bookingKeyFromCode } from '@contract/booking-code';
import { createApiClient } from '../../../../src-web/api/client';
import { BookingCodeBox, qrPath } from '../../../../src-web/features/booking-code/booking-code-box';
import { RootStore } from '../../../../src-web/stores/root-store';
import { StoresProvider } from '../../../../src-web/stores/use-stores';
import { json, startApiServer } from '../../helpers/api-server';
import { testConfig } from '../../helpers/test-config';

// The booking code box (src-web/features/booking-code/): the QR code must scan back to the
// appointment link, and say what it is to people who cannot see it.

const KEY = 'RXizpOy124eIE3xqxwcjKA';
const PIXELS_PER_MODULE = 4;

/** Paints the SVG path's modules into RGBA pixels, as a camera would see the printed code. */
function rasterise(d: string, side: number): { data: Uint8ClampedArray; size: number } {
  const size = side * PIXELS_PER_MODULE;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  for (const [, x, y] of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < PIXELS_PER_MODULE; dy += 1)
      for (let dx = 0; dx < PIXELS_PER_MODULE; dx += 1) {
        const at = ((Number(y) * PIXELS_PER_MODULE + dy) * size + Number(x) * PIXELS_PER_MODULE + dx) * 4;
        data.fill(0, at, at + 3);
      }
  }
  return { data, size };
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
  it('draws a QR code that scans back to the appointment link, which the kiosk reads the key from', () => {
    const payload = `https://portal.example.com/a/${KEY}`;
    const { d, side } = qrPath(payload);
    const { data, size } = rasterise(d, side);
    const decoded = jsQR(data, size, size);
    expect(decoded?.data).toBe(payload);
    expect(bookingKeyFromCode(decoded?.data ?? '')).toBe(KEY);
  });

  it('shows the code as an image with a name, the key grouped for reading, and how to use it', async () => {
    const view = await renderBox();
    const image = await screen.findByRole('img', { name: 'QR code of your booking, to scan at the kiosk' });
    expect(image.querySelector('path')?.getAttribute('d')).toBe(qrPath(`${window.location.origin}/a/${KEY}`).d);
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
