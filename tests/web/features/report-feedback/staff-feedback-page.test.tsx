import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FeedbackListResponse } from '@contract/api/referrer-feedback';
import { json, type RouteHandler } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';

// The staff page of referrer feedback through the real app against a local HTTP server
// answering GET /api/staff/referrer-feedback as the real one does.

const LIST: FeedbackListResponse = {
  items: [
    {
      id: '00000000-0000-4000-8000-000000000011',
      reportId: '00000000-0000-4000-8000-000000000012',
      accessionNumber: 'ACC-7',
      referrerName: 'Dr Riley Referrer',
      referrerProviderNumber: '2426711A',
      modalityCode: 'MR',
      examName: 'MRI knee',
      givenVia: 'imsec',
      answers: { clarity: 5, comment: 'Very clear', again: 'yes', unknownQuestion: 2 },
      createdAt: '2026-03-10T01:00:00.000Z',
    },
  ],
  questions: [
    { name: 'clarity', title: 'How clear was the report?', choices: {} },
    { name: 'turnaround', title: 'How satisfied are you with the turnaround time?', choices: {} },
    { name: 'comment', title: 'Anything else', choices: {} },
    { name: 'again', title: 'Would you refer here again?', choices: { yes: 'Yes, certainly', no: 'No' } },
  ],
  total: 1,
  page: 1,
  pageSize: 20,
  byReferrer: [{ key: '2426711A', label: 'Dr Riley Referrer', count: 1, averages: { clarity: 5, turnaround: null } }],
  byModality: [{ key: 'MR', label: 'Magnetic resonance', count: 1, averages: { clarity: 5, turnaround: null } }],
};

const server = (status: 200 | 401 | 403): Record<string, RouteHandler> => ({
  'GET /api/staff/referrer-feedback': (_request, response) =>
    status === 200
      ? json(response, 200, LIST)
      : json(response, status, { code: status === 401 ? 'unauthorized' : 'forbidden', message: 'No.' }),
});

describe('staff referrer feedback page', () => {
  it('should show the summary per referrer and per modality and the feedback list', async () => {
    await renderApp('/staff/referrer-feedback', { routes: server(200) });
    const byReferrer = await screen.findByRole('table', { name: 'Per referrer' });
    const row = within(byReferrer).getByRole('row', { name: /Dr Riley Referrer/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['1', 'How clear was the report? 5 · How satisfied are you with the turnaround time? –']);
    expect(screen.getByRole('table', { name: 'Per modality' }).textContent).toContain('Magnetic resonance');
    expect(screen.getByRole('heading', { level: 2, name: '1 feedback entry, newest first' })).toBeTruthy();
    // The questionnaire's own words, and the choice's words for a choice; a question no longer in
    // any questionnaire keeps its name.
    expect(
      screen.getByText(
        'How clear was the report? 5 · Anything else: Very clear · Would you refer here again? Yes, certainly · unknownQuestion: 2',
      ),
    ).toBeTruthy();
  });

  it('should offer sign-in without a staff session, and say so for a role without access', async () => {
    const first = await renderApp('/staff/referrer-feedback', { routes: server(401) });
    expect((await screen.findByRole('alert')).textContent).toContain('Please sign in with your organisation account');
    first.unmount();
    await renderApp('/staff/referrer-feedback', { routes: server(403) });
    expect((await screen.findByRole('alert')).textContent).toContain('staff or admin role needed');
  });
});
