import type { ServerResponse } from 'node:http';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../helpers/api-server';
import { renderApp, type RenderedApp } from '../../helpers/render-app';
import { bookingRoutes, holdReleaseRoutes, recording, type RecordedBookingRequest } from './booking-fixtures';
import { appointmentServer, BOOKING_KEY, summaryFixture } from '../appointments/appointment-fixtures';

const NOW = () => new Date('2026-11-23T01:00:00.000Z');
const FLOW = `/?reschedule=${BOOKING_KEY}&exams=ct-brain&clinic=parramatta&lat=-33.8151&lng=151.0011`;

const QUESTIONNAIRE_KEY = 'Tq0Vx9mYb2kLr8Zp4Hc6Wd';

type Answer = (request: RecordedBookingRequest, response: ServerResponse) => void;

/** The booking flow opened by the appointment page's Reschedule (or Change) button. */
async function openFlow(context: 'RESCHEDULED' | 'CHANGED', answers: Answer[] = []) {
  const log: RecordedBookingRequest[] = [];
  // The booking being moved: a CT brain (the exam the flow's link preselects).
  const ctBrain = (startsAt?: string) =>
    summaryFixture({
      appointments: summaryFixture().appointments.map((appointment) => ({
        ...appointment,
        startsAt: startsAt ?? appointment.startsAt,
        examSlug: 'ct-brain',
        examName: 'CT brain',
      })),
    });
  const fake = appointmentServer({ consentForms: [], summary: ctBrain() });
  let calls = 0;
  const moved = (startsAt: string) => ctBrain(startsAt);
  const routes = {
    ...bookingRoutes(log),
    ...holdReleaseRoutes(log),
    ...fake.routes,
    // The new exams' questionnaires (a change asks them; this provider has none for a CT brain).
    'POST /api/questionnaires/booking-keys': recording(log, (_request, response) => json(response, 201, { bookingKey: QUESTIONNAIRE_KEY })),
    'GET /api/questionnaires': recording(log, (_request, response) =>
      json(response, 200, { bookingKey: QUESTIONNAIRE_KEY, questionnaires: [], allAnswered: true }),
    ),
    [`POST /api/appointments/${BOOKING_KEY}/reschedule`]: recording(log, (request, response) => {
      const answer = answers[calls];
      calls += 1;
      if (answer) return answer(request, response);
      json(response, 200, moved((request.body as { startsAt: string }).startsAt));
    }),
  };
  const url = context === 'RESCHEDULED' ? `${FLOW}&context=RESCHEDULED&step=1` : `${FLOW}&context=CHANGED`;
  const app = await renderApp(url, { routes, clock: NOW });
  return { app, log };
}

/** Picks the first 09:30 time at the preselected clinic and continues to the last step. */
async function toLastStep(): Promise<void> {
  const [firstTime] = await screen.findAllByRole('button', { name: /at 9:30\sam$/i });
  if (!firstTime) throw new Error('no free time shown');
  fireEvent.click(firstTime);
  await screen.findByText(/is held for you until/);
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { level: 2, name: 'Move your appointment' });
  // The step's code is a lazy chunk of its own.
  await screen.findByRole('button', { name: 'Move my appointment' });
}

const reschedules = (log: RecordedBookingRequest[]) =>
  log.filter((request) => request.path === `/api/appointments/${BOOKING_KEY}/reschedule`);
const location = (app: RenderedApp) => `${app.router.state.location.pathname}${app.router.state.location.search}`;

// Each test walks the booking flow through lazy chunks; on a busy 2-core machine that can take seconds.
describe('booking flow with ?reschedule=', () => {
  it('should open at the times of the booking clinic, then move the appointment and show the new time on its page', async () => {
    const { app, log } = await openFlow('RESCHEDULED');
    expect(await screen.findByText('You are moving your appointment: choose a new time.')).toBeTruthy();
    await toLastStep();
    // The patient details form is not asked for: the summary and the move button instead.
    expect(screen.queryByRole('textbox', { name: 'First name' })).toBeNull();
    expect(await screen.findByText('Current time')).toBeTruthy();
    expect(screen.getByTestId('reschedule-new-time').textContent).toMatch(/Parramatta/);

    fireEvent.click(screen.getByRole('button', { name: 'Move my appointment' }));
    await waitFor(() => expect(location(app)).toBe(`/appointments/${BOOKING_KEY}`));
    expect(await screen.findByText('Your appointment has been moved to the new time.')).toBeTruthy();

    const [move] = reschedules(log);
    expect(move?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(move?.body).toMatchObject({ context: 'RESCHEDULED', clinicSlug: 'parramatta' });
    expect(move?.body).not.toHaveProperty('exams');
    // A move keeps the booking's answers: no questionnaires asked, no key sent.
    expect(move?.body).not.toHaveProperty('questionnaireKey');
    expect(log.some((request) => request.path.startsWith('/api/questionnaires'))).toBe(false);
    const startsAt = (move?.body as { startsAt: string }).startsAt;
    await waitFor(() => expect(screen.getByTestId('appointment-time').getAttribute('datetime')).toBe(startsAt));
    // Our own hold on the new time goes with the move (the server turns it into the appointment),
    // and is never released: releasing it first would let someone else take the time.
    expect(move?.body).toMatchObject({ holdId: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/) });
    expect(log.some((request) => request.method === 'DELETE' && request.path.startsWith('/api/booking/holds/'))).toBe(false);
  });

  it('should send the chosen exams with the CHANGED context, starting from the exam choice', async () => {
    const { log } = await openFlow('CHANGED');
    expect(await screen.findByText('You are changing your appointment: choose the exams, clinic and time.')).toBeTruthy();
    expect(((await screen.findByRole('checkbox', { name: /CT brain/ })) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await toLastStep();
    fireEvent.click(screen.getByRole('button', { name: 'Move my appointment' }));
    await waitFor(() => expect(reschedules(log)).toHaveLength(1));
    // The change asked the new exams' questionnaires and names their key, so the server can check the screening.
    expect(log.some((request) => request.method === 'GET' && request.path === '/api/questionnaires')).toBe(true);
    expect(reschedules(log)[0]?.body).toMatchObject({
      context: 'CHANGED',
      clinicSlug: 'parramatta',
      exams: ['ct-brain'],
      questionnaireKey: QUESTIONNAIRE_KEY,
    });
  });

  it('should move as a change when the patient went back and chose other exams', async () => {
    const { log } = await openFlow('RESCHEDULED');
    await screen.findAllByRole('button', { name: /at 9:30\sam$/i });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: /CT chest/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /CT brain/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Choose Parramatta' }));
    await toLastStep();
    fireEvent.click(screen.getByRole('button', { name: 'Move my appointment' }));
    await waitFor(() => expect(reschedules(log)).toHaveLength(1));
    // Other exams than the booking's: their questionnaires were asked, and their key goes with the change.
    expect(reschedules(log)[0]?.body).toMatchObject({ context: 'CHANGED', exams: ['ct-chest'], questionnaireKey: QUESTIONNAIRE_KEY });
  });

  it('should go back to the times with the "just taken" notice when the time went to someone else (409 slot_taken)', async () => {
    const { app, log } = await openFlow('RESCHEDULED', [
      (_request, response) => json(response, 409, { code: 'slot_taken', message: 'That time was just taken.' }),
    ]);
    await toLastStep();
    fireEvent.click(screen.getByRole('button', { name: 'Move my appointment' }));
    expect(await screen.findByText(/just taken/i)).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Choose a clinic and a time' })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/');
    expect(reschedules(log)).toHaveLength(1);
  });

  it('should say why when the server refuses the move (409 change_not_allowed)', async () => {
    const { app } = await openFlow('RESCHEDULED', [
      (_request, response) =>
        json(response, 409, { code: 'change_not_allowed', message: 'Too late', details: { reason: 'PRIOR_MINUTES', priorMinutes: 1440 } }),
    ]);
    await toLastStep();
    fireEvent.click(screen.getByRole('button', { name: 'Move my appointment' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/only until 24 hours before the start time/);
    expect(app.router.state.location.pathname).toBe('/');
  });

  it('should retry a move whose answer was lost with the same Idempotency-Key', async () => {
    const { app, log } = await openFlow('RESCHEDULED', [(_request, response) => response.destroy()]);
    await toLastStep();
    fireEvent.click(screen.getByRole('button', { name: 'Move my appointment' }));
    expect(await screen.findByText('Sorry, we could not move your appointment. Please try again.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Move my appointment' }));
    await waitFor(() => expect(location(app)).toBe(`/appointments/${BOOKING_KEY}`));
    const [first, second] = reschedules(log);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  });
});
