import type { IncomingMessage, ServerResponse } from 'node:http';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BookingRequestSummarySchema, type BookingRequestSummary } from '@contract/api/booking-requests';
import { json, type RouteHandler } from '../../helpers/api-server';
import { renderApp, type RenderedApp } from '../../helpers/render-app';
import { testConfig } from '../../helpers/test-config';

const KEY = 'pVC8vuYWYJuWi6jKwcf5Cg';
const referralPath = (id: string): string => `/api/secured/booking_requests/${KEY}/attachments/${id}/download`;
const REFERRAL_ONE = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const REFERRAL_TWO = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';

function requestFixture(overrides: Partial<BookingRequestSummary> = {}): BookingRequestSummary {
  return BookingRequestSummarySchema.parse({
    bookingKey: KEY,
    status: 'BOOKED',
    patientNotes: 'Mornings suit me best.',
    bookingDetails: {
      exams: [{ name: 'Cardiac MRI', nameWithModality: 'MRI - Cardiac MRI', slug: 'mri-cardiac' }],
      clinicName: 'Parramatta Imaging',
    },
    patientDetails: {
      title: 'Ms',
      firstName: 'Chloe',
      lastName: 'Request',
      dateOfBirth: '1979-05-23',
      email: 'chloe.request@example.com',
      contactNumber: '0491570159',
      postalCode: '2150',
    },
    referrals: [
      { id: REFERRAL_ONE, fileName: 'referral-cardiac-mri.pdf', contentType: 'application/pdf', downloadUrl: referralPath(REFERRAL_ONE) },
    ],
    bookingInfoHtml: '<p>Our bookings team will call you within two business days.</p><script>window.pwned = true</script>',
    requiredDocument: null,
    channel: 'web',
    preferredTimes: [],
    screeningByPhone: false,
    type: 'PATIENT',
    bookedByChatService: false,
    ...overrides,
  });
}

interface Options {
  summary?: BookingRequestSummary;
  signedIn?: boolean;
  cancel?: (response: ServerResponse) => void;
}

function requestServer(options: Options = {}) {
  let summary = options.summary ?? requestFixture();
  const writes: string[] = [];
  const sessionQueries: string[] = [];
  const routes: Record<string, RouteHandler> = {
    'GET /api/patient-access/session': (request: IncomingMessage, response) => {
      sessionQueries.push(request.url ?? '');
      if (options.signedIn === false) return json(response, 401, { code: 'unauthorized', message: 'Please sign in.' });
      json(response, 200, { isAuthenticated: true, bookingKey: KEY, type: 'BOOKING_REQUEST', roleTranslations: '{}' });
    },
    [`GET /api/booking-requests/${KEY}`]: (_request, response) => json(response, 200, summary),
    [`POST /api/booking-requests/${KEY}/cancel`]: (_request, response) => {
      writes.push('cancel');
      if (options.cancel) return options.cancel(response);
      summary = { ...summary, status: 'CANCELED' };
      json(response, 200, summary);
    },
  };
  return { routes, writes, sessionQueries };
}

async function open(options: Options = {}, url = `/booking-requests/${KEY}`, config = testConfig()) {
  const fake = requestServer(options);
  const app = await renderApp(url, { routes: fake.routes, config });
  return { app, fake };
}

// The first test loads the page's lazy chunks: it may take longer than findBy's default second under load.
const loaded = () => screen.findByRole('heading', { level: 2, name: 'Request' }, { timeout: 10_000 });
const location = (app: RenderedApp) => `${app.router.state.location.pathname}${app.router.state.location.search}`;

describe('booking-request page', () => {
  it('should show the status, exams, clinic, notes and the patient details after the BOOKING_REQUEST session check', async () => {
    const { fake } = await open();
    await loaded();
    expect(screen.getByRole('heading', { level: 1, name: 'Your booking request' })).toBeTruthy();
    expect(screen.getByTestId('booking-request-status').textContent).toBe('Requested');
    expect(screen.getByText('MRI - Cardiac MRI')).toBeTruthy();
    expect(screen.getByText('Parramatta Imaging')).toBeTruthy();
    expect(screen.getByText('Mornings suit me best.')).toBeTruthy();
    expect(screen.getByText('Ms Chloe Request')).toBeTruthy();
    expect(screen.getByText('1979-05-23')).toBeTruthy();
    expect(screen.getByText('chloe.request@example.com')).toBeTruthy();
    expect(fake.sessionQueries[0]).toContain('type=BOOKING_REQUEST');
  });

  it('should say "Any clinic" when no clinic was chosen', async () => {
    await open({
      summary: requestFixture({
        bookingDetails: { exams: [{ name: 'Biopsy', nameWithModality: 'IR - Biopsy', slug: 'ir-biopsy' }], clinicName: null },
      }),
    });
    await loaded();
    expect(screen.getByText('Any clinic')).toBeTruthy();
  });

  it.each([`/br/${KEY}`, `/parramatta/booking-requests/${KEY}`, `/iframe/booking-requests/${KEY}`])('should open at %s', async (url) => {
    await open({}, url);
    await loaded();
  });

  it('should send a patient without a session to sign in for the booking request', async () => {
    const { app, fake } = await open({ signedIn: false }, `/br/${KEY}`);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/authentication'));
    expect(location(app)).toContain('type=BOOKING_REQUEST');
    expect(location(app)).toContain(`returnUrl=${encodeURIComponent(`/br/${KEY}`)}`);
    expect(fake.writes).toEqual([]);
  });

  it('should offer the one referral as a download link', async () => {
    const { app } = await open();
    await loaded();
    const link = screen.getByRole('link', { name: 'Download referral' });
    expect(link.getAttribute('href')).toBe(`${app.server.url}${referralPath(REFERRAL_ONE)}`);
    expect(link.getAttribute('download')).toBe('referral-cardiac-mri.pdf');
    expect(screen.queryByRole('button', { name: /Referrals/ })).toBeNull();
  });

  it('should list several referrals in the attachments dialog', async () => {
    await open({
      summary: requestFixture({
        referrals: [
          { id: REFERRAL_ONE, fileName: 'referral.pdf', contentType: 'application/pdf', downloadUrl: referralPath(REFERRAL_ONE) },
          { id: REFERRAL_TWO, fileName: 'report-page.png', contentType: 'image/png', downloadUrl: referralPath(REFERRAL_TWO) },
        ],
      }),
    });
    await loaded();
    expect(screen.queryByRole('link', { name: 'Download referral' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Referrals (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Referrals' });
    const links = within(dialog).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['referral.pdf', 'report-page.png']);
    expect(links[1]?.getAttribute('href')).toContain(referralPath(REFERRAL_TWO));
  });

  it('should offer no referral when the provider turned downloads off', async () => {
    const base = testConfig();
    await open({}, `/booking-requests/${KEY}`, { ...base, app: { ...base.app, bookingRequestsDownloadReferralEnabled: false } });
    await loaded();
    expect(screen.queryByRole('link', { name: 'Download referral' })).toBeNull();
  });

  it('should show the booking information, sanitised, from its button', async () => {
    await open();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Booking information' }));
    const dialog = await screen.findByRole('dialog', { name: 'Booking information' });
    expect(await within(dialog).findByText('Our bookings team will call you within two business days.')).toBeTruthy();
    expect(dialog.innerHTML).not.toContain('<script');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('should show where a chat request was made, the times that suit and the screening by phone (docs/rules/chat.md)', async () => {
    await open({
      summary: requestFixture({ channel: 'chat', preferredTimes: ['weekdayMorning', 'saturdayMorning'], screeningByPhone: true }),
    });
    await loaded();
    expect(screen.getByText('The chat assistant')).toBeTruthy();
    expect(screen.getByText('Weekday mornings, Saturday mornings')).toBeTruthy();
    expect(screen.getByText('Our booking team will ask them on the phone before booking.')).toBeTruthy();
  });

  it("should say when the provider's chat service is talking about the request, or booked it (docs/rules/chat.md)", async () => {
    await open({ summary: requestFixture({ type: 'CHAT' }) });
    await loaded();
    expect(screen.getByText(/^You are talking with our assistant about this request\./)).toBeTruthy();
  });

  it('should say the chat service booked it', async () => {
    await open({ summary: requestFixture({ type: 'CHAT', bookedByChatService: true }) });
    await loaded();
    expect(screen.getByText(/^Booked in your chat with our assistant\./)).toBeTruthy();
  });

  it('should show none of the chat rows for a request from the booking flow', async () => {
    await open();
    await loaded();
    expect(screen.queryByText('The chat assistant')).toBeNull();
    expect(screen.queryByText('Chat assistant')).toBeNull();
  });

  it('should have no booking-information button without the text', async () => {
    await open({ summary: requestFixture({ bookingInfoHtml: null }) });
    await loaded();
    expect(screen.queryByRole('button', { name: 'Booking information' })).toBeNull();
  });

  it('should cancel only after the confirmation, then show CANCELED and no cancel button', async () => {
    const { fake } = await open();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel request' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Cancel this booking request?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fake.writes).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel request' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Your booking request has been cancelled.')).toBeTruthy();
    expect(screen.getByTestId('booking-request-status').textContent).toBe('Cancelled');
    expect(screen.queryByRole('button', { name: 'Cancel request' })).toBeNull();
    expect(fake.writes).toEqual(['cancel']);
  });

  it('should show a cancelled request without a cancel button', async () => {
    await open({ summary: requestFixture({ status: 'CANCELED' }) });
    await loaded();
    expect(screen.getByTestId('booking-request-status').textContent).toBe('Cancelled');
    expect(screen.queryByRole('button', { name: 'Cancel request' })).toBeNull();
  });

  it('should show the default error when the cancellation fails', async () => {
    await open({ cancel: (response) => json(response, 503, { code: 'service_unavailable', message: 'down' }) });
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel request' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    const error = await screen.findByRole('alertdialog', { name: 'Something went wrong' });
    expect(within(error).getByText('Sorry, we could not do that. Please try again later or call the clinic.')).toBeTruthy();
    expect(screen.getByTestId('booking-request-status').textContent).toBe('Requested');
  });
});
