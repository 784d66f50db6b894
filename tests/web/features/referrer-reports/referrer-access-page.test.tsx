import type { IncomingMessage, ServerResponse } from 'node:http';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReferrerReportListItem, ReferrerReportsPage } from '@contract/api/referrer-reports';
import { json } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
import { REFERRER_USER, STAFF_USER } from '../../helpers/staff-users';
import { testConfig } from '../../helpers/test-config';
// antd's Form, Select and Table ask jsdom for matchMedia and ResizeObserver, which it lacks.
import '../../helpers/jsdom-for-antd';

const PAGE = '/referrer-access';

/** A report as GET /api/referrer/reports answers it (src-contract/api/referrer-reports.ts). */
function report(n: number, overrides: Partial<ReferrerReportListItem> = {}): ReferrerReportListItem {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    reportId: id,
    patient: { firstName: `First${n}`, lastName: `Last${n}` },
    dateOfBirth: '1991-03-14',
    examName: 'MRI lumbar spine',
    clinicName: 'Parramatta',
    accessionNumber: `HRR-${n}`,
    reportedAt: '2026-03-09T23:30:00.000Z',
    released: true,
    unread: false,
    quickReportPath: `/referrer/quick-report?imsec=imsec-${n}&repositorySource=default`,
    ...overrides,
  };
}

const LIAM = report(1, {
  patient: { firstName: 'Liam', lastName: 'Example' },
  accessionNumber: 'HRR-DEMO-MR-260103',
  released: false,
  unread: true,
});
const AMELIA = report(2, { patient: { firstName: 'Amelia', lastName: 'Sample' }, examName: 'MRI shoulder', clinicName: 'Chatswood' });

/** /api/referrer/reports in memory: prefix search on names and accession, 20 a page by cursor. */
function reportsServer(all: ReferrerReportListItem[] = [LIAM, AMELIA], reason: ReferrerReportsPage['reason'] = null) {
  const queries: { search: string | null; before: string | null; sort: string | null; order: string | null }[] = [];
  const route = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://test');
    const search = url.searchParams.get('search');
    const before = url.searchParams.get('before');
    queries.push({ search, before, sort: url.searchParams.get('sort'), order: url.searchParams.get('order') });
    const wanted = (search ?? '').toLowerCase();
    const matching = all.filter((row) =>
      [row.patient.firstName, row.patient.lastName, row.accessionNumber].some((text) => text.toLowerCase().startsWith(wanted)),
    );
    const start = before === null ? 0 : Number(before.split('~')[1]?.slice(-12));
    const page = matching.slice(start, start + 20);
    const next =
      start + 20 < matching.length ? `2026-03-09T23:30:00.000Z~00000000-0000-4000-8000-${String(start + 20).padStart(12, '0')}` : null;
    json(response, 200, { reports: page, nextCursor: next, reason } satisfies ReferrerReportsPage);
  };
  return { routes: { 'GET /api/referrer/reports': route }, queries };
}

// antd's Table is slow to first render in jsdom on a loaded machine.
describe('referrer access page', { timeout: 30_000 }, () => {
  it("should list the referrer's patients' reports in a table, each name a link to the quick report, with the details, the release state and New while unopened", async () => {
    await renderApp(PAGE, { routes: reportsServer().routes, staffUser: REFERRER_USER });
    expect(await screen.findByRole('heading', { level: 1, name: "Your patients' reports" })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Example, Liam' });
    // The list marks the link so the quick report can lead back to it.
    expect(link.getAttribute('href')).toBe(`${LIAM.quickReportPath}&from=list`);
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Patient',
      'Date of birth',
      'Exam',
      'Reported',
      'Status',
    ]);
    const row = within(link.closest('tr') as HTMLElement);
    expect(row.getByText(/HRR-DEMO-MR-260103/)).toBeTruthy();
    expect(row.getAllByText('14 Mar 1991').length).toBeGreaterThan(0);
    // In its column, and again under the name for a phone (CSS shows one of them).
    expect(row.getAllByText('Not yet released')).toHaveLength(2);
    expect(row.getByText('New')).toBeTruthy();
    const amelia = within(screen.getByRole('link', { name: 'Sample, Amelia' }).closest('tr') as HTMLElement);
    expect(amelia.getAllByText('Released to patient')).toHaveLength(2);
    expect(amelia.getByText(/Chatswood/)).toBeTruthy();
    expect(amelia.queryByText('New')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('2 reports shown, 1 new');
  });

  it('should ask the server for the sort a column header sets, A to Z first, then the other way', async () => {
    const server = reportsServer();
    await renderApp(PAGE, { routes: server.routes, staffUser: REFERRER_USER });
    await screen.findByRole('link', { name: 'Example, Liam' });
    expect(server.queries[0]).toMatchObject({ sort: 'date', order: 'desc' });
    const patient = screen.getAllByRole('columnheader').find((header) => header.textContent === 'Patient') as HTMLElement;
    fireEvent.click(patient);
    await waitFor(() => expect(server.queries.at(-1)).toMatchObject({ sort: 'patient', order: 'asc' }));
    fireEvent.click(patient);
    await waitFor(() => expect(server.queries.at(-1)).toMatchObject({ sort: 'patient', order: 'desc' }));
  });

  it('should search by name once typing pauses (one request, not one per key) and say when nothing matches', async () => {
    const server = reportsServer();
    await renderApp(PAGE, { routes: server.routes, staffUser: REFERRER_USER });
    const field = await screen.findByLabelText('Search by patient name or accession number');
    await screen.findByRole('link', { name: 'Sample, Amelia' });
    for (const text of ['l', 'li', 'lia']) fireEvent.change(field, { target: { value: text } });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Sample, Amelia' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Example, Liam' })).toBeTruthy();
    expect(server.queries.map((query) => query.search)).toEqual([null, 'lia']);

    fireEvent.change(field, { target: { value: 'zz' } });
    expect(await screen.findByText('No reports match “zz”.')).toBeTruthy();
    // The field stayed through the searches: the same element, with the text typed.
    expect(screen.getByLabelText('Search by patient name or accession number')).toBe(field);
    expect((field as HTMLInputElement).value).toBe('zz');
  });

  it('should show further pages with "Show more reports", asking with the cursor', async () => {
    const many = Array.from({ length: 23 }, (_, i) => report(i + 1));
    const server = reportsServer(many);
    await renderApp(PAGE, { routes: server.routes, staffUser: REFERRER_USER });
    await screen.findByText('20 reports shown');
    fireEvent.click(screen.getByRole('button', { name: 'Show more reports' }));
    await screen.findByText('23 reports shown');
    expect(screen.getAllByRole('link', { name: /Last\d+, First\d+/ })).toHaveLength(23);
    expect(server.queries[1]?.before).toMatch(/~/);
    expect(screen.queryByRole('button', { name: 'Show more reports' })).toBeNull();
  });

  it('should say why the list is empty when the account carries no provider number', async () => {
    await renderApp(PAGE, { routes: reportsServer([], 'no_provider_number').routes, staffUser: REFERRER_USER });
    expect(await screen.findByText(/Your account carries no provider number/)).toBeTruthy();
  });

  it('should say when there are no reports at all', async () => {
    await renderApp(PAGE, { routes: reportsServer([]).routes, staffUser: REFERRER_USER });
    expect(await screen.findByText('No reports yet for patients you referred.')).toBeTruthy();
  });
});

describe('referrer access page without access', () => {
  it('should offer the staff sign-in to a signed-out doctor, and no search field', async () => {
    const config = testConfig({
      app: { identityClientId: 'portal-web', identityAuthority: 'https://idp.test/tenant', identityScope: 'api://portal/.default' },
    });
    const routes = {
      'GET /api/referrer/reports': (_request: IncomingMessage, response: ServerResponse) =>
        json(response, 401, { code: 'unauthorized', message: 'Please sign in with your organisation account.' }),
    };
    await renderApp(PAGE, { routes, config });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("Please sign in with your practice account to see your patients' reports.");
    expect(within(alert).getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByLabelText('Search by patient name or accession number')).toBeNull();
  });

  it('should tell a signed-in person without the referrer role so', async () => {
    const routes = {
      'GET /api/referrer/reports': (_request: IncomingMessage, response: ServerResponse) =>
        json(response, 403, { code: 'forbidden', message: 'Your account may not do that.' }),
    };
    await renderApp(PAGE, { routes, staffUser: STAFF_USER });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your account is not registered as a referring doctor');
    expect(screen.queryByLabelText('Search by patient name or accession number')).toBeNull();
  });

  it('should offer Retry when the server fails, and list after it', async () => {
    let calls = 0;
    const ok = reportsServer();
    const routes = {
      'GET /api/referrer/reports': (request: IncomingMessage, response: ServerResponse) => {
        calls += 1;
        if (calls === 1) json(response, 503, { code: 'service_unavailable', message: 'down' });
        else ok.routes['GET /api/referrer/reports'](request, response);
      },
    };
    await renderApp(PAGE, { routes, staffUser: REFERRER_USER });
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Example, Liam' })).toBeTruthy();
  });
});
