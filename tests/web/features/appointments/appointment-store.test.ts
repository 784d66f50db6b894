import { describe, expect, it } from 'vitest';
import { createAppointmentsApi } from '../../../../src-web/api/appointments-api';
import { createBookingRequestsApi } from '../../../../src-web/api/booking-requests-api';
import { createApiClient } from '../../../../src-web/api/client';
import { AppointmentStore } from '../../../../src-web/features/appointments/appointment-store';
import { BookingRequestStore } from '../../../../src-web/features/booking-requests/booking-request-store';
import { json, startApiServer, type RouteHandler } from '../../helpers/api-server';
import {
  answer,
  appointmentServer,
  BOOKING_KEY,
  CONSENT_FORM,
  summaryFixture,
  type AppointmentServerOptions,
} from './appointment-fixtures';

interface Setup {
  store: AppointmentStore;
  writes: { name: string; body: unknown }[];
  navigations: { to: string; replace: boolean }[];
  requests: () => string[];
}

let keys = 0;

async function setup(
  options: AppointmentServerOptions & { signedIn?: boolean; currentUrl?: string; extra?: Record<string, RouteHandler> } = {},
): Promise<Setup> {
  const fake = appointmentServer({ consentForms: [], ...options });
  const server = await startApiServer({ ...fake.routes, ...options.extra });
  const navigations: Setup['navigations'] = [];
  const store = new AppointmentStore({
    api: createAppointmentsApi(createApiClient(server.url)),
    ensureSignedIn: () => Promise.resolve(options.signedIn ?? true),
    navigator: () => ({
      navigate: (to, navigateOptions) => navigations.push({ to, replace: navigateOptions?.replace ?? false }),
      currentUrl: () => options.currentUrl ?? `/appointments/${BOOKING_KEY}`,
    }),
    newIdempotencyKey: () => `00000000-0000-4000-8000-${String((keys += 1)).padStart(12, '0')}`,
  });
  return { store, writes: fake.writes, navigations, requests: () => server.requests.map((request) => `${request.method} ${request.url}`) };
}

describe('AppointmentStore', () => {
  it('should ask for nothing when the authenticated check sends the patient to sign in', async () => {
    const { store, requests } = await setup({ signedIn: false });
    await store.open(BOOKING_KEY);
    expect(store.summary).toBeNull();
    expect(store.loadState).toBe('idle');
    expect(requests()).toEqual([]);
  });

  it('should go to /deny with replace, inside the frame when embedded', async () => {
    const { store, navigations } = await setup({ summary: summaryFixture({ status: 'EXPIRED' }), currentUrl: `/iframe/a/${BOOKING_KEY}` });
    await store.open(BOOKING_KEY);
    expect(navigations).toEqual([{ to: '/iframe/deny?status=EXPIRED', replace: true }]);
    expect(store.summary).toBeNull();
  });

  it('should load the consent forms only for a live appointment', async () => {
    const live = await setup();
    await live.store.open(BOOKING_KEY);
    expect(live.requests()).toContain(`GET /api/appointments/${BOOKING_KEY}/consent-forms`);

    const moved = await setup({ summary: summaryFixture({ status: 'RESCHEDULED' }) });
    await moved.store.open(BOOKING_KEY);
    expect(moved.store.summary?.status).toBe('RESCHEDULED');
    expect(moved.store.live).toBe(false);
    expect(moved.requests()).not.toContain(`GET /api/appointments/${BOOKING_KEY}/consent-forms`);
  });

  it('should read an unknown refusal reason in a 409 as OTHER', async () => {
    const { store } = await setup({
      extra: {
        [`POST /api/appointments/${BOOKING_KEY}/reschedule`]: (_request, response) =>
          json(response, 409, { code: 'change_not_allowed', message: 'No', details: { reason: 'SOMETHING_NEW', priorMinutes: 60 } }),
      },
    });
    const outcome = await store.rescheduling.reschedule(BOOKING_KEY, {
      context: 'RESCHEDULED',
      clinicSlug: 'parramatta',
      startsAt: '2026-12-02T22:30:00.000Z',
    });
    expect(outcome).toBe('not_allowed');
    expect(store.dialog).toEqual({ kind: 'rescheduleNotAllowed', reason: 'OTHER', priorMinutes: 60 });
  });

  it('should show the limit from a 409 on the cancellation itself', async () => {
    const { store } = await setup({
      summary: summaryFixture({ cancelReasons: [] }),
      answers: {
        cancel: answer(409, { code: 'change_not_allowed', message: 'No', details: { reason: 'PRIOR_MINUTES', priorMinutes: 60 } }),
      },
    });
    await store.open(BOOKING_KEY);
    await store.cancellation.confirmCancel();
    expect(store.dialog).toEqual({ kind: 'cancelNotAllowed', priorMinutes: 60 });
  });

  it('should not send a reason that is not one of the configured ones', async () => {
    const { store, writes } = await setup();
    await store.open(BOOKING_KEY);
    await store.cancellation.confirmCancel();
    store.cancellation.setCancelReason('Made up');
    expect(await store.cancellation.submitCancel()).toBe(false);
    expect(store.cancellation.cancelReasonMissing).toBe(true);
    expect(writes).toEqual([]);
  });

  it('should keep one Idempotency-Key for retries of one move and take a new one for another move or after an answer', async () => {
    const seen: string[] = [];
    let calls = 0;
    const { store } = await setup({
      extra: {
        [`POST /api/appointments/${BOOKING_KEY}/reschedule`]: (request, response) => {
          seen.push(String(request.headers['idempotency-key']));
          calls += 1;
          if (calls === 1) return response.destroy();
          if (calls === 3) return json(response, 409, { code: 'slot_taken', message: 'taken' });
          json(response, 200, summaryFixture());
        },
      },
    });
    const move = { context: 'RESCHEDULED' as const, clinicSlug: 'parramatta', startsAt: '2026-12-02T22:30:00.000Z' };
    expect(await store.rescheduling.reschedule(BOOKING_KEY, move)).toBe('failed');
    expect(await store.rescheduling.reschedule(BOOKING_KEY, move)).toBe('done');
    expect(await store.rescheduling.reschedule(BOOKING_KEY, { ...move, startsAt: '2026-12-03T22:30:00.000Z' })).toBe('slot_taken');
    expect(await store.rescheduling.reschedule(BOOKING_KEY, { ...move, startsAt: '2026-12-03T22:30:00.000Z' })).toBe('done');
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).not.toBe(seen[1]);
    expect(seen[3]).not.toBe(seen[2]);
  });

  it('should send only the details the patient filled in, trimmed', async () => {
    const { store, writes } = await setup();
    await store.open(BOOKING_KEY);
    store.detailsChange.openDetailsChange();
    store.detailsChange.setDetail('firstName', '  ');
    store.detailsChange.setDetail('postcode', ' 2150 ');
    store.detailsChange.setDetail('note', 'New address from March');
    expect(await store.detailsChange.submitDetailsChange()).toBe(true);
    expect(writes).toEqual([{ name: 'details', body: { postcode: '2150', note: 'New address from March' } }]);
    expect(store.dialog).toEqual({ kind: 'detailsChangeSuccess' });
  });

  it('should show the consent notification once per visit, not on every return to the page', async () => {
    const { store } = await setup({ consentForms: [CONSENT_FORM], notifyPatient: true });
    await store.open(BOOKING_KEY);
    expect(store.dialog).toEqual({ kind: 'consentNotification' });
    store.closeDialog();
    await store.open(BOOKING_KEY);
    expect(store.dialog).toBeNull();
  });

  it('should offer the confirmation only while it is live, allowed and not yet given', async () => {
    const { store } = await setup({ summary: summaryFixture({ confirmed: true }) });
    await store.open(BOOKING_KEY);
    expect(store.canConfirm).toBe(false);
  });

  it('should build the booking flow link from the booking: exams, clinic and its position', async () => {
    const [first] = summaryFixture().appointments;
    if (!first) throw new Error('the fixture has an appointment');
    const { store } = await setup({ summary: summaryFixture({ appointments: [first, { ...first, slug: 'a2', examSlug: 'ct-brain' }] }) });
    await store.open(BOOKING_KEY);
    const url = new URL(store.rescheduling.bookingFlowUrl('RESCHEDULED'), 'http://x');
    expect(url.pathname).toBe('/');
    expect(url.searchParams.get('exams')).toBe('mri-knee,ct-brain');
    expect(url.searchParams.get('step')).toBe('1');
  });
});

describe('BookingRequestStore', () => {
  const KEY = 'pVC8vuYWYJuWi6jKwcf5Cg';

  it('should ignore the answer for a booking request the page has left', async () => {
    let release: () => void = () => undefined;
    const server = await startApiServer({
      [`GET /api/booking-requests/${KEY}`]: (_request, response) => {
        release = () => json(response, 200, { bookingKey: KEY });
      },
    });
    const store = new BookingRequestStore({
      api: createBookingRequestsApi(createApiClient(server.url)),
      ensureSignedIn: () => Promise.resolve(true),
      downloadReferralEnabled: () => true,
    });
    const opening = store.open(KEY);
    await new Promise((resolve) => setTimeout(resolve, 50));
    store.dispose();
    release();
    await opening;
    expect(store.summary).toBeNull();
  });

  it('should not cancel without a request or twice at once', async () => {
    const server = await startApiServer({});
    const store = new BookingRequestStore({
      api: createBookingRequestsApi(createApiClient(server.url)),
      ensureSignedIn: () => Promise.resolve(false),
      downloadReferralEnabled: () => true,
    });
    await store.open(KEY);
    store.openCancel();
    expect(store.dialog).toBeNull();
    expect(server.requests).toEqual([]);
  });
});
