import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CheckInChecklistSchema, type CheckInChecklist } from '@contract/api/check-in-checklist';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { signIn, type Signed } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { LIAM, liamsAppointment, resetCheckIn, uploadReferral, type Booked } from './check-in-kit';

// The checklist after check-in (docs/rules/check-in.md#checklist) on a real database: what the
// server knows of LIAM's booking, and how it changes when the patient signs and uploads.

describe.each(backends())('check-in checklist on %s', (backend) => {
  const server = useTestApp({ backend });
  let liam: Signed;
  let booked: Booked;
  let path: string;

  const checklist = async (): Promise<CheckInChecklist> => {
    const response = await liam.get(path);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return CheckInChecklistSchema.parse(response.json());
  };

  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    booked = await liamsAppointment(server.db);
    path = `/api/secured/appointments/${LIAM.bookingKey}/check-in/${booked.appointmentId}/checklist`;
    server.clock.set(new Date(booked.startsAt.getTime() - 60 * 60_000));
    liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
  });
  beforeEach(async () => {
    await resetCheckIn(server.db, booked);
    await server.db.query(`delete from consent_signature where booking_key = $1`, [LIAM.bookingKey]);
    await server.db.query(
      `update exam set fasting_hours = null, preparation_notes = 'Remove all metal.', preparation_parts = '[]' where id = $1::uuid`,
      [booked.examId],
    );
  });

  it('lists unsigned consent forms, the missing referral and the preparation with the time fasting starts, in the clinic time zone', async () => {
    await server.db.query(`update exam set referral_required = true, fasting_hours = 4 where id = $1::uuid`, [booked.examId]);
    const [forms] = await server.db.query<{ count: number }>(
      `select count(*)::int as count from consent_form f join exam e on e.id = $1::uuid
        where f.active and (f.modality_id is null or f.modality_id = e.modality_id)`,
      [booked.examId],
    );
    const [clinic] = await server.db.query<{ time_zone: string }>(
      `select c.time_zone from appointment a join resource r on r.id = a.resource_id join clinic c on c.id = r.clinic_id where a.id = $1::uuid`,
      [booked.appointmentId],
    );
    expect(forms?.count).toBeGreaterThan(0);

    const answer = await checklist();
    expect(answer.timeZone).toBe(clinic?.time_zone);
    expect(answer.items).toEqual([
      { kind: 'CONSENT_FORMS', count: forms?.count },
      { kind: 'REFERRAL', documentTypeId: booked.referralTypeId },
      {
        kind: 'PREPARATION',
        examName: expect.any(String),
        startsAt: booked.startsAt.toISOString(),
        notes: 'Remove all metal.',
        fastingHours: 4,
        nothingToEatFrom: new Date(booked.startsAt.getTime() - 4 * 3_600_000).toISOString(),
      },
    ]);
  });

  it('drops what the patient has done: the forms signed and the referral uploaded; no fasting time when the exam asks none', async () => {
    await server.db.query(`update exam set referral_required = true where id = $1::uuid`, [booked.examId]);
    await server.db.query(
      `insert into consent_signature (booking_key, consent_form_id, signed_name, signed_at)
       select $1, f.id, 'Liam Example', now() from consent_form f where f.active`,
      [LIAM.bookingKey],
    );
    const uploaded = await uploadReferral(server.app, liam, booked);
    expect(uploaded.statusCode, uploaded.body).toBe(201);

    const answer = await checklist();
    expect(answer.items.map((item) => item.kind)).toEqual(['PREPARATION']);
    expect(answer.items[0]).toMatchObject({ fastingHours: null, nothingToEatFrom: null });
  });

  it('leaves out an exam with nothing to prepare, and answers 404 for an appointment of another booking', async () => {
    await server.db.query(`update exam set preparation_notes = '', preparation_parts = '[]' where id = $1::uuid`, [booked.examId]);
    await server.db.query(
      `insert into consent_signature (booking_key, consent_form_id, signed_name, signed_at)
       select $1, f.id, 'Liam Example', now() from consent_form f where f.active`,
      [LIAM.bookingKey],
    );
    expect((await checklist()).items).toEqual([]);

    const [other] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key <> $1 limit 1`, [
      LIAM.bookingKey,
    ]);
    const response = await liam.get(`/api/secured/appointments/${LIAM.bookingKey}/check-in/${other?.id ?? ''}/checklist`);
    expect(response.statusCode).toBe(404);
    const before = await server.db.query(`select count(*)::int as n from consent_signature`);
    await liam.get(path);
    expect(await server.db.query(`select count(*)::int as n from consent_signature`)).toEqual(before);
  });
});
