import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-web/api/client';
import { createResultsApi } from '../../../../src-web/api/results-api';
import { HistoryStore } from '../../../../src-web/features/results/history-store';
import { SessionStore } from '../../../../src-web/stores/session-store';
import { json, startApiServer } from '../../helpers/api-server';
import { answer } from '../authentication/patient-access-fixtures';
import { recordingNavigator } from '../authentication/patient-access-setup';
import { NO_MATCH, patientMatchRoute, PENDING_HISTORY, RELEASED_ID, releasedHistory } from './history-fixtures';
import { BOOKING_KEY, imsec, LINK_TTL_MS, viewerAnswer } from './results-fixtures';

const LOADED_AT = Date.parse('2026-12-10T00:00:00.000Z');
type MatchAnswers = Parameters<typeof patientMatchRoute>[0];

async function setup(answers: MatchAnswers = [{ historyAppointments: [releasedHistory(), PENDING_HISTORY] }], clock = { at: 0 }) {
  const match = patientMatchRoute(answers);
  const viewerInputs: string[] = [];
  const server = await startApiServer({
    ...match.routes,
    'GET /api/image_viewer': (request, response) => {
      viewerInputs.push(new URL(request.url ?? '/', 'http://test').searchParams.get('input') ?? '');
      json(response, 200, viewerAnswer());
    },
  });
  const client = createApiClient(server.url);
  const navigator = recordingNavigator(`/appointments/${BOOKING_KEY}/result/patient`);
  const session = new SessionStore(() => navigator);
  client.setSessionHandlers({ logout: () => session.logout(), reauthenticate: () => session.reauthenticate() });
  const left: string[] = [];
  const store = new HistoryStore({
    api: createResultsApi(client),
    navigator: () => navigator,
    browser: { assign: (url) => left.push(url), openInNewTab: (url) => left.push(`new tab: ${url}`) },
    now: () => LOADED_AT + clock.at,
    today: () => '2026-12-10',
  });
  store.start(BOOKING_KEY, null);
  return { store, match, server, left, viewerInputs, navigator };
}

describe('HistoryStore: the patient match form', () => {
  it('should prefill a date of birth from the page query, and only a date', async () => {
    const { store } = await setup();
    store.start(BOOKING_KEY, '1991-03-14');
    expect(store.dateOfBirth).toBe('1991-03-14');
    const other = await setup();
    other.store.start(BOOKING_KEY, '14/03/1991');
    expect(other.store.dateOfBirth).toBe('');
  });

  it('should check the date of birth: required, a real date, not in the future', async () => {
    const { store } = await setup();
    expect(store.problem('dateOfBirth')).toBe('required');
    store.setDateOfBirth('1991-02-30');
    expect(store.problem('dateOfBirth')).toBe('invalid');
    store.setDateOfBirth('2026-12-11');
    expect(store.problem('dateOfBirth')).toBe('future');
    store.setDateOfBirth('1991-03-14');
    expect(store.problem('dateOfBirth')).toBeNull();
  });

  it('should check only the chosen contact: an e-mail address, or 6 to 15 digits with an optional plus', async () => {
    const { store } = await setup();
    expect(store.problem('email')).toBe('required');
    expect(store.problem('phone')).toBeNull();
    store.setEmail('liam.example');
    expect(store.problem('email')).toBe('invalid');
    store.setEmail(' liam.example@example.com ');
    expect(store.problem('email')).toBeNull();
    store.setContactKind('phone');
    expect(store.problem('email')).toBeNull();
    expect(store.problem('phone')).toBe('required');
    for (const bad of ['12345', '+12345678901234567', '04915a0006', '++491570006']) {
      store.setPhone(bad);
      expect(store.problem('phone'), bad).toBe('invalid');
    }
    for (const good of ['123456', '+61491570006', '0491 570 006']) {
      store.setPhone(good);
      expect(store.problem('phone'), good).toBeNull();
    }
  });

  it('should send nothing while a field has a problem, and show the problems only then', async () => {
    const { store, match } = await setup();
    expect(store.visibleProblem('dateOfBirth')).toBeNull();
    expect(await store.submit()).toBe(false);
    expect(match.bodies).toEqual([]);
    expect(store.visibleProblem('dateOfBirth')).toBe('required');
    expect(store.firstInvalid).toBe('dateOfBirth');
  });

  it('should send the date of birth with exactly one of e-mail or phone', async () => {
    const { store, match } = await setup();
    store.setDateOfBirth('1991-03-14');
    store.setEmail(' liam.example@example.com ');
    store.setPhone('0491570006');
    expect(await store.submit()).toBe(true);
    store.setContactKind('phone');
    store.setPhone('0491 570 006');
    expect(await store.submit()).toBe(true);
    expect(match.bodies).toEqual([
      { dateOfBirth: '1991-03-14', email: 'liam.example@example.com' },
      { dateOfBirth: '1991-03-14', phone: '0491570006' },
    ]);
  });

  it('should list the earlier appointments, released and not yet released', async () => {
    const { store, server } = await setup();
    store.setDateOfBirth('1991-03-14');
    store.setEmail('liam.example@example.com');
    await store.submit();
    expect(store.items?.map((item) => [item.appointment.examName, item.appointment.state])).toEqual([
      ['XR chest', 'RELEASED'],
      ['US abdomen', 'NOT_RELEASED'],
    ]);
    const [released] = store.items ?? [];
    if (!released) throw new Error('no item');
    expect(store.pdfUrl(released, false)).toBe(`${server.url}/api/results/${BOOKING_KEY}/history/${RELEASED_ID}/report.pdf`);
    expect(store.pdfUrl(released, true)).toBe(`${server.url}/api/results/${BOOKING_KEY}/history/${RELEASED_ID}/report.pdf?download=true`);
    expect(store.error).toBeNull();
  });

  it('should say no earlier results were found on 404 patient_matching_error, and a failure otherwise', async () => {
    const { store } = await setup([NO_MATCH, answer(500, { code: 'internal_error', message: 'x' })]);
    store.setDateOfBirth('1991-03-14');
    store.setEmail('someone.else@example.com');
    expect(await store.submit()).toBe(false);
    expect(store.error).toBe('noMatch');
    expect(store.items).toBeNull();
    expect(await store.submit()).toBe(false);
    expect(store.error).toBe('failed');
    expect(store.searching).toBe(false);
  });
});

describe('HistoryStore: images of an earlier result', () => {
  it('should open the viewer, and renew a stale link by asking the match again with the same details', async () => {
    const fresh = imsec(LOADED_AT + LINK_TTL_MS, LINK_TTL_MS, 'h2');
    const clock = { at: 0 };
    const { store, match, left, viewerInputs } = await setup(
      [{ historyAppointments: [releasedHistory()] }, { historyAppointments: [releasedHistory({ imageViewerLink: fresh })] }],
      clock,
    );
    store.setDateOfBirth('1991-03-14');
    store.setContactKind('phone');
    store.setPhone('+61491570006');
    await store.submit();
    const [item] = store.items ?? [];
    if (!item) throw new Error('no item');
    await store.openImages(item);
    expect(left).toEqual(['https://viewer.example/study?token=abc']);
    // The form changed meanwhile: the renewal asks with what was sent, not with the form now.
    store.setPhone('999');
    clock.at = LINK_TTL_MS;
    await store.openImages(item);
    expect(viewerInputs).toEqual([releasedHistory().imageViewerLink, fresh]);
    expect(match.bodies).toEqual([
      { dateOfBirth: '1991-03-14', phone: '+61491570006' },
      { dateOfBirth: '1991-03-14', phone: '+61491570006' },
    ]);
    expect(item.images.problem).toBeNull();
  });
});
