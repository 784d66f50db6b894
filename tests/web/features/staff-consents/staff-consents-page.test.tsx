import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffConsents } from '@contract/api/staff-consents';
import { json, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
import { REFERRER_USER, STAFF_USER } from '../../helpers/staff-users';

// /staff/appointments/:bookingKey/consents through the real app against a stand-in API over real HTTP.

const KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';
const DRAWN = '00000000-0000-4000-8000-00000000000a';
const TYPED = '00000000-0000-4000-8000-00000000000b';
const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

const CONSENTS: StaffConsents = {
  bookingKey: KEY,
  consents: [
    {
      id: DRAWN,
      title: 'Privacy and consent',
      signed: true,
      signedName: 'Liam Example',
      signedAt: '2026-03-16T21:40:00.000Z',
      drawn: true,
    },
    { id: TYPED, title: 'MRI safety', signed: true, signedName: 'Liam Example', signedAt: '2026-03-15T02:00:00.000Z', drawn: false },
    { id: 'c', title: 'Contrast consent', signed: false, signedName: null, signedAt: null, drawn: false },
  ],
};

function consentsServer(list: (response: Parameters<RouteHandler>[1]) => void = (response) => json(response, 200, CONSENTS)) {
  const asked: string[] = [];
  const routes: Record<string, RouteHandler> = {
    [`GET /api/staff/appointments/${KEY}/consents`]: (request, response) => {
      asked.push(request.url ?? '');
      list(response);
    },
    [`GET /api/staff/appointments/${KEY}/consents/${DRAWN}/signature.png`]: (request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(PNG_BYTES);
    },
  };
  return { routes, asked };
}

describe('staff consent signatures page', () => {
  it('lists the forms with signed name and time, and shows the drawn signature with its alt text', async () => {
    const server = consentsServer();
    await renderApp(`/staff/appointments/${KEY}/consents`, { routes: server.routes, staffUser: STAFF_USER });
    expect(await screen.findByRole('heading', { level: 1, name: 'Consent forms' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Privacy and consent' })).toBeTruthy();
    const image = await screen.findByRole('img', { name: 'Signature of Liam Example drawn for “Privacy and consent”' });
    // A data: URL (the CSP allows img-src 'self' data:, not blob:) of the very bytes served.
    const src = image.getAttribute('src') ?? '';
    expect(src).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(src.split(',')[1] ?? '', 'base64').equals(PNG_BYTES)).toBe(true);
    expect(screen.getAllByText('Signed by Liam Example', { exact: false })).toHaveLength(2);
    expect(screen.getByText('Signed with a typed name (no drawn signature).')).toBeTruthy();
    expect(screen.getByText('Not signed yet')).toBeTruthy();
    // Only the drawn one is fetched.
    expect(server.asked.filter((url) => url.endsWith('signature.png'))).toEqual([
      `/api/staff/appointments/${KEY}/consents/${DRAWN}/signature.png`,
    ]);
  });

  it('says when the role is not enough (a referrer)', async () => {
    const forbidden = consentsServer((response) => json(response, 403, { code: 'forbidden', message: 'You may not do that.' }));
    await renderApp(`/staff/appointments/${KEY}/consents`, { routes: forbidden.routes, staffUser: REFERRER_USER });
    expect((await screen.findByRole('alert')).textContent).toMatch(/needs the staff or admin role/);
  });

  it('says no booking has the key on a 404', async () => {
    const missing = consentsServer((response) => json(response, 404, { code: 'not_found', message: 'No booking has this key.' }));
    await renderApp(`/staff/appointments/${KEY}/consents`, { routes: missing.routes, staffUser: STAFF_USER });
    expect((await screen.findByRole('alert')).textContent).toBe('No booking has this key.');
  });
});
