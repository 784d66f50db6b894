import '../../helpers/jsdom-for-antd';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffCallback, StaffCallbackList } from '@contract/api/callbacks';
import { json, readJsonBody, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';

// The staff callback queue through the real app against a local HTTP server answering as the
// real one does (docs/rules/callbacks.md#the-staff-queue).

const OPEN: StaffCallback = {
  id: '00000000-0000-4000-8000-000000000021',
  firstName: 'Marija',
  lastName: 'Petrova',
  phone: '0412345678',
  windows: ['weekdayMorning', 'saturdayMorning'],
  reason: 'No time after work.',
  examName: 'MRI knee',
  receivedAt: '2026-03-10T01:00:00.000Z',
  status: 'open',
  calledAt: null,
  calledBy: null,
  note: null,
};
const CALLED: StaffCallback = {
  ...OPEN,
  id: '00000000-0000-4000-8000-000000000022',
  firstName: 'Ivan',
  lastName: 'Later',
  phone: '+61491570006',
  windows: ['anyTime'],
  examName: null,
  status: 'called',
  calledAt: '2026-03-10T02:00:00.000Z',
  calledBy: 'Sam Staff',
  note: 'Booked Thursday',
};

/** The queue, and the marks the page sent; a mark moves the request among the called ones. */
function queueServer(status: 200 | 401 | 403 = 200) {
  let list: StaffCallbackList = { items: [OPEN, CALLED], openTotal: 1 };
  const marks: Array<{ url: string; body: unknown }> = [];
  const routes: Record<string, RouteHandler> = {
    'GET /api/staff/callback-requests': (_request, response) =>
      status === 200 ? json(response, 200, list) : json(response, status, { code: 'forbidden', message: 'No.' }),
    [`POST /api/staff/callback-requests/${OPEN.id}/called`]: (request, response) => {
      void readJsonBody(request).then((body) => {
        marks.push({ url: request.url ?? '', body });
        const called: StaffCallback = {
          ...OPEN,
          status: 'called',
          calledAt: '2026-03-10T03:00:00.000Z',
          calledBy: 'Sam Staff',
          note: 'Rang back',
        };
        list = { items: [called, CALLED], openTotal: 0 };
        response.writeHead(204).end();
      });
    },
  };
  return { routes, marks };
}

describe('staff callback queue', () => {
  it(
    'should list the requests with a tel: link, the windows and the status, and mark one called with a note',
    { timeout: 120_000 },
    async () => {
      const server = queueServer();
      await renderApp('/staff/callbacks', { routes: server.routes });
      const table = await screen.findByRole('table', { name: /The queue/ }, { timeout: 60_000 });
      expect(screen.getByText('(1 open request)')).toBeTruthy();
      const open = within(table).getByRole('row', { name: /Marija Petrova/ });
      expect(within(open).getByRole('link', { name: '0412345678' }).getAttribute('href')).toBe('tel:0412345678');
      expect(open.textContent).toContain('Weekday morning');
      expect(open.textContent).toContain('Saturday morning');
      expect(open.textContent).toContain('Was booking: MRI knee');
      const called = within(table).getByRole('row', { name: /Ivan Later/ });
      expect(called.textContent).toContain('Called');
      expect(called.textContent).toContain('by Sam Staff');
      expect(called.textContent).toContain('Booked Thursday');
      expect(within(called).queryByRole('button')).toBeNull();

      fireEvent.click(within(open).getByRole('button', { name: /^Mark called\s*Marija Petrova$/ }));
      const dialog = await screen.findByRole('dialog', { name: 'Mark Marija Petrova called' });
      fireEvent.change(within(dialog).getByLabelText('Note (optional)'), { target: { value: 'Rang back' } });
      expect(within(dialog).getByText('9 of 500 characters')).toBeTruthy();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Mark called' }));
      expect((await screen.findByRole('status')).textContent).toBe('Marija Petrova is marked called.');
      await waitFor(() => expect(screen.getByText('(0 open requests)')).toBeTruthy());
      expect(server.marks).toEqual([{ url: `/api/staff/callback-requests/${OPEN.id}/called`, body: { note: 'Rang back' } }]);
    },
  );

  it('should offer sign-in without a staff session, and say so for a role without access', async () => {
    const first = await renderApp('/staff/callbacks', { routes: queueServer(401).routes });
    expect((await screen.findByRole('alert')).textContent).toContain('Staff sign-in is needed to see the callback requests.');
    first.unmount();
    await renderApp('/staff/callbacks', { routes: queueServer(403).routes });
    expect((await screen.findByRole('alert')).textContent).toContain('they are for the booking team');
  });
});
