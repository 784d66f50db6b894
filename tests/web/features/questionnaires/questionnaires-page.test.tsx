import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Questionnaire, QuestionnaireItem } from '@contract/api/questionnaires';
import { json, readJsonBody } from '../../helpers/api-server';
import { renderApp } from '../../helpers/render-app';
import { questionnaireDefinition } from './questionnaire-fixtures';

const KEY = 'BK_abcdefghijklmnopqrstuv';

// SurveyJS measures its container; jsdom has no layout and no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

/** The /q page against a local server: signed in to KEY, one pending questionnaire until it is answered. */
async function renderPage(q: Questionnaire, url = `/q?bookingKey=${KEY}`) {
  let answered = false;
  const saved: unknown[] = [];
  const list = () => ({
    bookingKey: KEY,
    questionnaires: [{ questionnaire: q, examSlug: null, examSlugs: [], modalityId: null, answered } satisfies QuestionnaireItem],
    allAnswered: answered,
    answers: [],
  });
  const app = await renderApp(url, {
    routes: {
      'GET /api/patient-access/session': (_, response) =>
        json(response, 200, { isAuthenticated: true, bookingKey: KEY, type: 'APPOINTMENT', roleTranslations: '{}' }),
      [`GET /api/questionnaires/appointments/${KEY}`]: (_, response) => json(response, 200, list()),
      [`POST /api/questionnaires/appointments/${KEY}/answers`]: (request, response) => {
        void readJsonBody(request).then((received) => {
          saved.push(received);
          answered = true;
          json(response, 200, {
            questionnaireId: q.id,
            questionnaireType: q.type,
            examSlug: null,
            savedAt: '2026-11-23T00:00:00Z',
            appointmentStatus: 'BOOKED',
          });
        });
      },
    },
  });
  return { app, saved };
}

describe('/questionnaires and /q', () => {
  it('should open the pending questionnaire in the survey modal, save the answer on the appointment and then say all is answered', async () => {
    const { saved } = await renderPage(questionnaireDefinition());
    const dialog = await screen.findByRole('dialog', { name: 'Before your visit' }, { timeout: 10_000 });
    expect(dialog.className).toContain('pp-survey-md');
    // showClose is false: no close control.
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    // Escape does not close it (static).
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(screen.getByRole('dialog', { name: 'Before your visit' })).toBeTruthy();
    expect(within(dialog).getAllByText('Answered 0 of 1').length).toBeGreaterThan(0);

    const answer = within(dialog).getByRole('textbox', { name: /Any allergies/ });
    fireEvent.change(answer, { target: { value: 'Penicillin' } });
    fireEvent.blur(answer);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Complete' }));

    await screen.findByText('Thank you: there are no questionnaires left to answer.');
    expect(saved).toEqual([{ questionnaireId: '11111111-1111-4111-8111-111111111111', questionnaireResult: { allergies: 'Penicillin' } }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('should show the close control only with showClose, and ask yes/no first with showClosingConfirmation', async () => {
    await renderPage(questionnaireDefinition({ showClose: true, showClosingConfirmation: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Before your visit' }, { timeout: 10_000 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Close the questionnaire?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'No, keep answering' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Before your visit' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, close it' }));
    await screen.findByText('You closed the questionnaire. You can answer it later from the link in your e-mail.');
    expect(screen.queryByRole('dialog', { name: 'Before your visit' })).toBeNull();
  });

  it('should turn ?appointmentSlug= into its booking for the signed-in patient of that booking', async () => {
    const SLUG = '22222222-2222-4222-8222-222222222222';
    const app = await renderApp(`/q?appointmentSlug=${SLUG}`, {
      routes: {
        [`GET /api/questionnaires/appointment-slugs/${SLUG}`]: (_, response) => json(response, 200, { bookingKey: KEY }),
        'GET /api/patient-access/session': (_, response) =>
          json(response, 200, { isAuthenticated: true, bookingKey: KEY, type: 'APPOINTMENT', roleTranslations: '{}' }),
        [`GET /api/questionnaires/appointments/${KEY}`]: (_, response) =>
          json(response, 200, { bookingKey: KEY, questionnaires: [], allAnswered: true, answers: [] }),
      },
    });
    await screen.findByText('Thank you: there are no questionnaires left to answer.', undefined, { timeout: 10_000 });
    expect(app.router.state.location.search).toBe(`?bookingKey=${KEY}`);
  });

  it('should ask a browser not signed in to the booking (the server answers 401) to open the booking first', async () => {
    const SLUG = '33333333-3333-4333-8333-333333333333';
    await renderApp(`/q?appointmentSlug=${SLUG}`, {
      routes: {
        [`GET /api/questionnaires/appointment-slugs/${SLUG}`]: (_, response) =>
          json(response, 401, { code: 'unauthorized', message: 'Please sign in to see this booking.' }),
      },
    });
    await screen.findByText(
      'Please open your booking from the link in your confirmation e-mail and sign in first, then open this link again.',
      undefined,
      { timeout: 10_000 },
    );
  });
});
