import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { canvasScale } from '../../../../src-web/features/kiosk-check-in/kiosk-signature-pad';
import { json, readJsonBody, type RouteHandler } from '../../helpers/api-server';
import { statusFixture } from '../check-in/check-in-fixtures';
import { renderApp } from '../../helpers/render-app';
import { CLINIC, consentForm, found, KEY, questionnaireItem, summaryToday } from './kiosk-fakes';

// The consent step through the real app (router, lazy pages, i18n) against a stand-in API over
// real HTTP. jsdom has no canvas drawing, so its 2D context is a stand-in that accepts every call;
// signature_pad's own pointer handling runs for real.

// SurveyJS measures its container; jsdom has no layout and no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

const DRAWN_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==';

function consentServer(options: { refuseFirst?: boolean } = {}) {
  const signed: Array<{ url: string; body: unknown }> = [];
  let refuse = options.refuseFirst ?? false;
  const forms = [
    {
      ...consentForm('00000000-0000-4000-8000-00000000000a', 'Privacy and consent to examination'),
      html: '<p>Privacy and consent to examination text</p><p>Read our <a href="/privacy">privacy policy</a>.</p>',
    },
  ];
  const routes: Record<string, RouteHandler> = {
    'GET /api/kiosk/me': (_request, response) => json(response, 200, CLINIC),
    'POST /api/kiosk/check-in/identity': (_request, response) => json(response, 200, found()),
    'POST /api/patient-access/authenticate': (_request, response) =>
      json(response, 200, { otpRequired: false, otpChannels: [], roleTranslations: '' }),
    [`GET /api/appointments/${KEY}`]: (_request, response) => json(response, 200, summaryToday()),
    [`POST /api/kiosk/check-in/${KEY}/a1`]: (_request, response) =>
      json(response, 200, statusFixture({ appointmentSlug: 'a1', state: 'CHECKED_IN', checkInSent: true, checkInSuccess: true })),
    // The form left for the desk is still unsigned.
    [`GET /api/secured/appointments/${KEY}/check-in/a1/checklist`]: (_request, response) =>
      json(response, 200, { timeZone: 'Australia/Sydney', items: [{ kind: 'CONSENT_FORMS', count: 1 }] }),
    [`GET /api/appointments/${KEY}/consent-forms`]: (_request, response) =>
      json(response, 200, { appointmentConsentForms: forms, notifyPatient: true }),
    [`PUT /api/appointments/${KEY}/consent-forms/${forms[0]?.id ?? ''}`]: (request, response) => {
      void readJsonBody(request).then((body) => {
        signed.push({ url: request.url ?? '', body });
        if (refuse) {
          refuse = false;
          json(response, 400, { code: 'validation_failed', message: 'The drawn signature is empty. Please sign with your finger.' });
        } else json(response, 200, { ...forms[0], signed: true, signedName: 'Ava Lobbyton', signedAt: new Date().toISOString() });
      });
    },
  };
  return { routes, signed };
}

/** A stroke as a finger makes it: down on the canvas, two moves, up. */
function draw(canvas: HTMLElement) {
  const at = (x: number, y: number, buttons: number) => ({
    pointerId: 7,
    pointerType: 'touch',
    isPrimary: true,
    buttons,
    clientX: x,
    clientY: y,
  });
  fireEvent.pointerDown(canvas, at(20, 40, 1));
  fireEvent.pointerMove(canvas, at(120, 60, 1));
  fireEvent.pointerMove(canvas, at(260, 50, 1));
  fireEvent.pointerUp(canvas, at(260, 50, 0));
}

/** The kiosk home, and Ava's name and date of birth sent (the fake server takes her code as given). */
async function identifyAva(routes: Record<string, RouteHandler>) {
  const app = await renderApp('/kiosk?kioskMode=true', { routes });
  fireEvent.change(await screen.findByLabelText('Last name'), { target: { value: 'Lobbyton' } });
  fireEvent.change(screen.getByLabelText('Day'), { target: { value: '12' } });
  fireEvent.change(screen.getByLabelText('Month'), { target: { value: '4' } });
  fireEvent.change(screen.getByLabelText('Year'), { target: { value: '1979' } });
  fireEvent.click(screen.getByRole('button', { name: 'Check in' }));
  return app;
}

async function toConsentStep(routes: Record<string, RouteHandler>) {
  const app = await identifyAva(routes);
  expect(await screen.findByRole('heading', { name: 'Privacy and consent to examination' })).toBeTruthy();
  await waitFor(() => expect(app.router.state.location.search).toBe('?step=consent&kioskMode=true'));
  return app;
}

describe('the kiosk consent step', () => {
  beforeEach(() => {
    const context = new Proxy({}, { get: (_target, name) => (name === 'canvas' ? undefined : () => undefined), set: () => true });
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => context as unknown as CanvasRenderingContext2D);
    vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(() => DRAWN_PNG);
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows the form, waits for a drawing, clears, and signs with the drawn PNG under the patient’s name, then confirm', async () => {
    const server = consentServer();
    await toConsentStep(server.routes);
    expect(await screen.findByText('Privacy and consent to examination text')).toBeTruthy();
    expect(screen.getByText('Signing as Ava Lobbyton')).toBeTruthy();
    // The form's link stays text at the kiosk: following it would leave the check-in.
    expect(fireEvent.click(screen.getByText('privacy policy'))).toBe(false);
    expect(screen.getByRole('region', { name: 'Text of the consent form' }).textContent).toContain('privacy policy');
    const sign = screen.getByRole('button', { name: 'I agree and sign' });
    expect(sign.hasAttribute('disabled')).toBe(true);

    const canvas = screen.getByRole('img', { name: 'Signature box: sign here with your finger' });
    draw(canvas);
    await waitFor(() => expect(sign.hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(sign.hasAttribute('disabled')).toBe(true));
    draw(canvas);
    await waitFor(() => expect(sign.hasAttribute('disabled')).toBe(false));

    fireEvent.click(sign);
    expect(await screen.findByRole('heading', { name: 'Your appointments today' })).toBeTruthy();
    expect(server.signed).toEqual([
      {
        url: expect.stringContaining('/consent-forms/') as string,
        body: { signedName: 'Ava Lobbyton', agreed: true, signaturePng: DRAWN_PNG },
      },
    ]);
  });

  it('a refused signature says why and keeps the form; “Sign at the desk instead” goes on without signing', async () => {
    const server = consentServer({ refuseFirst: true });
    await toConsentStep(server.routes);
    draw(screen.getByRole('img', { name: 'Signature box: sign here with your finger' }));
    const sign = screen.getByRole('button', { name: 'I agree and sign' });
    await waitFor(() => expect(sign.hasAttribute('disabled')).toBe(false));
    fireEvent.click(sign);
    expect((await screen.findByRole('alert')).textContent).toBe('The drawn signature is empty. Please sign with your finger.');
    expect(screen.getByRole('heading', { name: 'Privacy and consent to examination' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Sign at the desk instead' }));
    expect(await screen.findByRole('heading', { name: 'Your appointments today' })).toBeTruthy();
    expect(server.signed).toHaveLength(1);

    // Checked in: what is left is asked at the front desk, never on another page.
    fireEvent.click(await screen.findByRole('button', { name: 'Check in' }));
    const checklist = await screen.findByRole('region', { name: 'Before your scan' });
    expect(await within(checklist).findByText('Ask at the front desk to sign the consent form for this appointment.')).toBeTruthy();
    expect(checklist.textContent).not.toMatch(/appointment page/);
    expect(checklist.querySelector('a')).toBeNull();
  });
});

describe('the kiosk questionnaires step', () => {
  it('offers each questionnaire due before the visit; “Answer at the desk instead” goes on to confirm', async () => {
    const server = consentServer();
    const routes: Record<string, RouteHandler> = {
      ...server.routes,
      [`GET /api/appointments/${KEY}/consent-forms`]: (_request, response) =>
        json(response, 200, { appointmentConsentForms: [], notifyPatient: false }),
      [`GET /api/questionnaires/appointments/${KEY}`]: (_request, response) =>
        json(response, 200, { questionnaires: [questionnaireItem('q1'), questionnaireItem('q2', 'PAIN_SCORE_INITIAL')], answers: [] }),
    };
    const app = await identifyAva(routes);
    expect(await screen.findByRole('heading', { name: 'Questions before your scan' })).toBeTruthy();
    await waitFor(() => expect(app.router.state.location.search).toBe('?step=questionnaires&kioskMode=true'));
    const asked = app.server.requests.find((request) => request.url.startsWith(`/api/questionnaires/appointments/${KEY}`));
    expect(decodeURIComponent(asked?.url ?? '')).toContain('types=REQUIRED_ON_CONFIRMATION,PAIN_SCORE_INITIAL');
    expect(screen.getByText('Questionnaire q1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Answer now' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Answer at the desk instead' }));
    expect(await screen.findByText('Questionnaire q2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Answer at the desk instead' }));
    expect(await screen.findByRole('heading', { name: 'Your appointments today' })).toBeTruthy();
  });
});

describe('the kiosk questionnaires step: answering', () => {
  it('“Answer now” runs the survey; an answer goes to the next one, closing it unanswered stays to choose', async () => {
    const server = consentServer();
    const saved: unknown[] = [];
    const routes: Record<string, RouteHandler> = {
      ...server.routes,
      [`GET /api/appointments/${KEY}/consent-forms`]: (_request, response) =>
        json(response, 200, { appointmentConsentForms: [], notifyPatient: false }),
      [`GET /api/questionnaires/appointments/${KEY}`]: (_request, response) =>
        json(response, 200, { questionnaires: [questionnaireItem('q1'), questionnaireItem('q2')], answers: [] }),
      [`POST /api/questionnaires/appointments/${KEY}/answers`]: (request, response) => {
        void readJsonBody(request).then((body) => {
          saved.push(body);
          json(response, 200, {
            questionnaireId: 'q1',
            questionnaireType: 'REQUIRED_ON_CONFIRMATION',
            examSlug: null,
            savedAt: new Date().toISOString(),
            appointmentStatus: 'BOOKED',
          });
        });
      },
    };
    await renderApp('/kiosk?kioskMode=true', { routes });
    fireEvent.change(await screen.findByLabelText('Last name'), { target: { value: 'Lobbyton' } });
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '12' } });
    fireEvent.change(screen.getByLabelText('Month'), { target: { value: '4' } });
    fireEvent.change(screen.getByLabelText('Year'), { target: { value: '1979' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check in' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Answer now' }));

    const dialog = await screen.findByRole('dialog', { name: 'Questionnaire q1' });
    const answer = within(dialog).getByRole('textbox', { name: /Question/ });
    fireEvent.change(answer, { target: { value: 'None' } });
    fireEvent.blur(answer);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Complete' }));
    expect(await screen.findByText('Questionnaire q2')).toBeTruthy();
    expect(saved).toEqual([{ questionnaireId: 'q1', questionnaireResult: { q1: 'None' } }]);

    fireEvent.click(screen.getByRole('button', { name: 'Answer now' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Questionnaire q2' })).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Questionnaire q2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Answer at the desk instead' }));
    expect(await screen.findByRole('heading', { name: 'Your appointments today' })).toBeTruthy();
  });
});

describe('canvasScale', () => {
  it('follows devicePixelRatio but keeps the PNG within 2000 × 1000', () => {
    expect(canvasScale(940, 300, 1)).toBe(1);
    expect(canvasScale(940, 300, 2)).toBe(2);
    expect(canvasScale(940, 300, 3)).toBeCloseTo(2000 / 940);
    expect(Math.floor(940 * canvasScale(940, 300, 3))).toBeLessThanOrEqual(2000);
    expect(canvasScale(940, 300, 0)).toBe(1);
  });
});
