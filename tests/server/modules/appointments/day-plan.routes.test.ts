import { beforeAll, describe, expect, it } from 'vitest';
import { ConsentFormsResponseSchema } from '@contract/api/appointments';
import { DayPlanSchema, type DayPlan } from '@contract/api/day-plan';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { appointmentBase, jpeg, multipart, send } from '../attachments/attachments-kit';
import { client, newAddress, setOtpRequired } from '../patient-access/sign-in-kit';
import { bookThrough, signedAs, signIn, type Booked, type Signed } from './self-service-kit';

// GET /api/secured/appointments/:bookingKey/day-plan on a real database with an injected clock
// (docs/rules/day-plan.md): the seeded exams' steps as instants, the clinic's own lead, parking
// and zone, what is missing coming and going as the patient uploads and signs, times marked past
// as the clock moves, and only the booking's own session let in.

const AMELIA = { bookingKey: 'RTZZ7AsePVS1c6abT-l4BA', dateOfBirth: '1968-11-02' };
const MINUTE = 60_000;
const before = (startsAt: string, minutes: number): string => new Date(Date.parse(startsAt) - minutes * MINUTE).toISOString();

describe.each(backends())('the day plan route on %s', (backend) => {
  const server = useTestApp({ backend, clock: SEED_NOW });
  let pelvis: Booked;
  let patient: Signed;
  const path = (bookingKey: string) => `/api/secured/appointments/${bookingKey}/day-plan`;

  const planOf = async (signed: Signed, bookingKey: string): Promise<DayPlan> => {
    const response = await signed.get(path(bookingKey));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return DayPlanSchema.parse(response.json());
  };

  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    // Coolangatta is in Queensland (no summer time) and asks patients to come 10 minutes early (the seed).
    pelvis = await bookThrough(server.app, { exams: 'us-pelvis', clinic: 'coolangatta', date: '2026-03-18' });
    patient = await signIn(server.app, pelvis.bookingKey, pelvis.dateOfBirth);
  });

  it('plans the seeded drink window and the clinic’s lead in the clinic’s zone, with its address, map and parking', async () => {
    const plan = await planOf(patient, pelvis.bookingKey);
    expect(plan.timeZone).toBe('Australia/Brisbane');
    expect(plan.steps).toEqual([
      {
        kind: 'DRINK',
        at: before(pelvis.startsAt, 60),
        until: before(pelvis.startsAt, 30),
        amount: '1 litre of water',
        examName: 'Ultrasound pelvis',
        past: false,
      },
      { kind: 'ARRIVE', at: before(pelvis.startsAt, 10), past: false },
      { kind: 'EXAM', at: new Date(pelvis.startsAt).toISOString(), examName: 'Ultrasound pelvis', past: false },
    ]);
    expect(plan.clinic).toMatchObject({ name: 'Coolangatta', parking: expect.stringContaining('Free parking behind the clinic') });
    expect(plan.clinic.mapUrl).toMatch(/^https:\/\/www\.openstreetmap\.org\/search\?query=.+Coolangatta/);
  });

  it('fasts a CT with contrast from 4 hours before and asks its patient to come an hour early (the seeded booking)', async () => {
    const amelia = await signIn(server.app, AMELIA.bookingKey, AMELIA.dateOfBirth);
    const plan = await planOf(amelia, AMELIA.bookingKey);
    const exam = plan.steps.find((step) => step.kind === 'EXAM');
    expect(exam).toBeDefined();
    const startsAt = exam?.at ?? '';
    expect(plan.steps.map((step) => [step.kind, step.at])).toEqual([
      ['STOP_EATING', before(startsAt, 4 * 60)],
      ['ARRIVE', before(startsAt, 60)],
      ['EXAM', startsAt],
    ]);
    // 10:15 in Sydney (the seed's local time): fasting from 06:15, arriving at 09:15.
    const local = (instant: string) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: plan.timeZone, hour: '2-digit', minute: '2-digit' }).format(new Date(instant));
    expect(plan.steps.map((step) => local(step.at))).toEqual(['06:15', '09:15', '10:15']);
  });

  it('lists the missing referral and consent forms until the patient uploads and signs them', async () => {
    const missingKinds = async () => (await planOf(patient, pelvis.bookingKey)).missing.map((item) => item.kind);
    expect(await missingKinds()).toEqual(['CONSENT_FORMS', 'REFERRAL']);

    const [referral] = await server.db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
    const uploaded = await send(
      server.app,
      { patientToken: patient.browser.token ?? '' },
      'POST',
      appointmentBase(pelvis.bookingKey),
      multipart({ documentTypeId: referral?.id ?? '' }, { name: 'referral.jpg', type: 'image/jpeg', bytes: await jpeg() }),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(await missingKinds()).toEqual(['CONSENT_FORMS']);

    const forms = ConsentFormsResponseSchema.parse((await patient.get(`/api/appointments/${pelvis.bookingKey}/consent-forms`)).json());
    for (const form of forms.appointmentConsentForms) {
      const signed = await patient.put(`/api/appointments/${pelvis.bookingKey}/consent-forms/${form.id}`, {
        signedName: 'Pat Example',
        agreed: true,
      });
      expect(signed.statusCode, signed.body).toBe(200);
    }
    expect(await missingKinds()).toEqual([]);
  });

  it('marks what is over as the day goes on, and has no steps once the exam is over', async () => {
    const start = Date.parse(pelvis.startsAt);
    // A session lasts less than the week to the exam: the patient signs in again on the day.
    const planAt = async (instant: number): Promise<DayPlan> => {
      server.clock.set(new Date(instant));
      return planOf(await signIn(server.app, pelvis.bookingKey, pelvis.dateOfBirth), pelvis.bookingKey);
    };
    try {
      const pasts = (plan: DayPlan) => plan.steps.map((step) => [step.kind, step.past]);
      expect(pasts(await planAt(start - 45 * MINUTE))).toEqual([
        ['DRINK', false],
        ['ARRIVE', false],
        ['EXAM', false],
      ]);
      expect(pasts(await planAt(start - 5 * MINUTE))).toEqual([
        ['DRINK', true],
        ['ARRIVE', true],
        ['EXAM', false],
      ]);
      const after = await planAt(start + 2 * 60 * MINUTE);
      expect(after.steps).toEqual([]);
      expect(after.clinic.name).toBe('Coolangatta');
    } finally {
      server.clock.set(SEED_NOW);
    }
  });

  it('answers 401 without a session and to another booking’s session', async () => {
    const nobody = signedAs(server.app, client(server.app, newAddress()));
    const amelia = await signIn(server.app, AMELIA.bookingKey, AMELIA.dateOfBirth);
    for (const caller of [nobody, amelia]) {
      const response = await caller.get(path(pelvis.bookingKey));
      expect(response.statusCode, response.body).toBe(401);
      expect(response.json()).toEqual({ code: 'unauthorized', message: 'Please sign in to see this booking.' });
    }
  });
});
