import '../../helpers/jsdom-for-antd';
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
      modalityName: 'Magnetic resonance',
      examName: 'MRI knee',
      patientName: 'Liam Example',
      givenVia: 'imsec',
      answers: { clarity: 5, comment: 'Very clear', again: 'yes', unknownQuestion: 2 },
      createdAt: '2026-03-10T01:00:00.000Z',
    },
  ],
  questions: [
    { name: 'clarity', title: 'How clear was the report?', rating: true, choices: {} },
    { name: 'turnaround', title: 'How satisfied are you with the turnaround time?', rating: true, choices: {} },
    { name: 'comment', title: 'Anything else', rating: false, choices: {} },
    { name: 'again', title: 'Would you refer here again?', rating: false, choices: { yes: 'Yes, certainly', no: 'No' } },
  ],
  total: 1,
  page: 1,
  pageSize: 20,
  byReferrer: [{ key: '2426711A', label: 'Dr Riley Referrer', count: 1, averages: { clarity: 5, turnaround: null } }],
  byModality: [{ key: 'MR', label: 'Magnetic resonance', count: 1, averages: { clarity: 5, turnaround: null } }],
  referrers: [{ key: '2426711A', label: 'Dr Riley Referrer' }],
  modalities: [{ key: 'MR', label: 'Magnetic resonance' }],
};

const server = (status: 200 | 401 | 403): Record<string, RouteHandler> => ({
  'GET /api/staff/referrer-feedback': (_request, response) =>
    status === 200
      ? json(response, 200, LIST)
      : json(response, status, { code: status === 401 ? 'unauthorized' : 'forbidden', message: 'No.' }),
});

describe('staff referrer feedback page', () => {
  it("should show each feedback under the questionnaire's own questions, and the summaries", async () => {
    await renderApp('/staff/referrer-feedback', { routes: server(200) });
    // antd's table comes with its theme, lazily (the first test pays for transforming antd).
    const table = await screen.findByRole('table', { name: /Feedback entries/ }, { timeout: 20_000 });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(
      expect.arrayContaining(['How clear was the report?', 'How satisfied are you with the turnaround time?', 'Comments']),
    );
    const row = within(table).getByRole('row', { name: /ACC-7/ });
    // A score in its column, an unanswered one a dash; the choice's words, and a question no
    // longer in any questionnaire under its name.
    expect(row.textContent).toContain('Liam Example');
    expect(within(row).getByText('Yes, certainly')).toBeTruthy();
    expect(within(row).getByText('unknownQuestion')).toBeTruthy();
    expect(within(row).getByText('Very clear')).toBeTruthy();
    const byReferrer = screen.getByRole('table', { name: 'Per referrer' });
    const summary = within(byReferrer).getByRole('row', { name: /Dr Riley Referrer/ });
    expect(
      within(summary)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Dr Riley Referrer', '1', '5', '–']);
    expect(screen.getByRole('table', { name: 'Per modality' }).textContent).toContain('Magnetic resonance');
  });

  it('should offer sign-in without a staff session, and say so for a role without access', async () => {
    const first = await renderApp('/staff/referrer-feedback', { routes: server(401) });
    expect((await screen.findByRole('alert')).textContent).toContain('Please sign in with your organisation account');
    first.unmount();
    await renderApp('/staff/referrer-feedback', { routes: server(403) });
    expect((await screen.findByRole('alert')).textContent).toContain('staff or admin role needed');
  });
});
