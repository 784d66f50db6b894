import type { Appointment, Bundle, Patient, QuestionnaireResponse, Slot } from '@medplum/fhirtypes';
import type { Client } from 'fhir-kit-client';
import { describe, expect, it } from 'vitest';
import { expectValidR4 } from './helpers/r4-validation';
import { useFhirServer, type FhirServerFixture } from './helpers/fhir-server';
import { book, hold, patient } from '../modules/booking/booking-test-kit';
import { backends } from '../helpers/database';

// Patients, their appointments and their questionnaire answers, through fhir-kit-client over real
// HTTP with a demo-provider token: everything booked the way the booking pages book (the portal's
// own HTTP API, screening answered first), read back as valid R4.

const SCOPES = 'system/Patient.rs system/Appointment.rs system/QuestionnaireResponse.rs system/Schedule.rs system/Slot.rs';
const entries = <T>(bundle: Bundle): T[] => (bundle.entry ?? []).map((entry) => entry.resource as T);

async function search<T>(client: Client, resourceType: string, searchParams: Record<string, string | number | string[]>): Promise<T[]> {
  const bundle = (await client.search({ resourceType, searchParams })) as unknown as Bundle;
  expectValidR4(bundle);
  return entries<T>(bundle);
}

/** The free starts of an exam at a clinic, as a RIS finds them (Schedule, then Slot). */
async function freeStarts(fixture: FhirServerFixture, client: Client, clinicSlug: string, examSlug: string, count: number) {
  const [clinic] = await fixture.server.db.query<{ id: string }>(`select id::text as id from clinic where slug = $1`, [clinicSlug]);
  const [exam] = await fixture.server.db.query<{ id: string }>(`select id::text as id from exam where slug = $1`, [examSlug]);
  const [schedule] = await search<{ id: string }>(client, 'Schedule', {
    actor: [`Location/${clinic?.id ?? ''}`, `HealthcareService/${exam?.id ?? ''}`],
  });
  const slots = await search<Slot>(client, 'Slot', { schedule: `Schedule/${schedule?.id ?? ''}`, _count: count });
  return { clinicId: clinic?.id ?? '', examId: exam?.id ?? '', starts: slots.map((slot) => slot.start) };
}

/** Books through the portal's API; answers the booking's appointment ids and its patient's id. */
async function booked(fixture: FhirServerFixture, body: Record<string, unknown>) {
  const response = await book(fixture.server.app, body);
  expect(response.statusCode, response.body).toBe(201);
  const { bookingKey } = response.json<{ bookingKey: string }>();
  const rows = await fixture.server.db.query<{ id: string; patient_id: string }>(
    `select id::text as id, patient_id::text as patient_id from appointment where booking_key = $1 order by lower(during)`,
    [bookingKey],
  );
  return { appointmentIds: rows.map((row) => row.id), patientId: rows[0]?.patient_id ?? '' };
}

describe.each(backends())('on %s', (backend) => {
  const fixture = useFhirServer(backend);

  describe('Patient, Appointment and QuestionnaireResponse through fhir-kit-client', () => {
    it('reads a booking back: its patient, its appointment and its screening answers, all valid R4', async () => {
      const client = fixture.fhirClient(await fixture.token(SCOPES));
      const { clinicId, examId, starts } = await freeStarts(fixture, client, 'chatswood', 'mri-knee', 1);
      const details = patient({ firstName: 'Marguerite', lastName: 'Fhirtest', dateOfBirth: '1951-07-04' });
      const { appointmentIds, patientId } = await booked(fixture, {
        exams: ['mri-knee'],
        clinicSlug: 'chatswood',
        startsAt: starts[0],
        patient: details,
      });

      const read = (await client.read({ resourceType: 'Patient', id: patientId })) as unknown as Patient;
      expectValidR4(read);
      expect(read.name?.[0]).toMatchObject({ family: 'Fhirtest', given: ['Marguerite'], prefix: ['Ms'] });
      expect(read.birthDate).toBe('1951-07-04');
      expect(read.telecom).toEqual(
        expect.arrayContaining([
          { system: 'email', value: details.email, use: 'home' },
          { system: 'phone', value: details.contactNumber, use: 'mobile' },
        ]),
      );
      // Found by a start of the name in any case, by date of birth (a day or a range) and by e-mail.
      for (const params of [
        { name: 'fhirt' },
        { name: 'MARG', birthdate: '1951-07-04' },
        { birthdate: ['ge1951-07-01', 'lt1951-07-05'], name: 'fhir' },
      ] as Record<string, string | string[]>[])
        expect((await search<Patient>(client, 'Patient', params)).map((found) => found.id)).toEqual([patientId]);
      expect((await search<Patient>(client, 'Patient', { email: details.email.toUpperCase() })).map((found) => found.id)).toEqual([
        patientId,
      ]);
      expect(await search<Patient>(client, 'Patient', { name: 'fhirt', birthdate: '1951-07-05' })).toEqual([]);

      const [appointmentId] = appointmentIds;
      const appointment = (await client.read({ resourceType: 'Appointment', id: appointmentId ?? '' })) as unknown as Appointment;
      expectValidR4(appointment);
      expect(appointment).toMatchObject({ status: 'booked', start: starts[0], minutesDuration: expect.any(Number) as number });
      expect(appointment.participant.map((participant) => participant.actor?.reference)).toEqual(
        expect.arrayContaining([`Patient/${patientId}`, `Location/${clinicId}`, `HealthcareService/${examId}`]),
      );
      const byPatient = await search<Appointment>(client, 'Appointment', { patient: `Patient/${patientId}` });
      expect(byPatient).toEqual([appointment]);
      expect(await search<Appointment>(client, 'Appointment', { patient: patientId, status: 'cancelled' })).toEqual([]);

      const [answer, ...others] = await search<QuestionnaireResponse>(client, 'QuestionnaireResponse', { patient: `Patient/${patientId}` });
      expect(others).toEqual([]);
      expectValidR4(answer as QuestionnaireResponse);
      expect(answer).toMatchObject({
        status: 'completed',
        questionnaire: 'urn:radiology-portal/Questionnaire/mri-safety-screening',
        subject: { reference: `Patient/${patientId}` },
        extension: [{ valueReference: { reference: `Appointment/${appointmentId ?? ''}` } }],
      });
      const items = new Map((answer?.item ?? []).map((item) => [item.linkId, item]));
      // A choice carries its listed text, a yes/no a boolean, a number a number.
      expect(items.get('pacemaker')?.answer?.[0]?.valueCoding).toMatchObject({ code: 'no' });
      expect(items.get('pacemaker')?.answer?.[0]?.valueCoding?.display).toEqual(expect.any(String));
      expect(items.get('hasImplants')?.answer).toEqual([{ valueBoolean: false }]);
      expect(items.get('weightKg')?.answer).toEqual([{ valueInteger: 82 }]);
      for (const item of items.values()) expect(item.text).toEqual(expect.any(String));
      expect(await client.read({ resourceType: 'QuestionnaireResponse', id: answer?.id ?? '' })).toEqual(answer);
      expect(
        await search(client, 'QuestionnaireResponse', {
          patient: patientId,
          questionnaire: 'urn:radiology-portal/Questionnaire/ct-contrast',
        }),
      ).toEqual([]);

      // Every read and search of a patient's information is audited: which client, what it found,
      // the names of the parameters it searched by and never their values.
      const audited = await fixture.server.db.query<{
        actor: string;
        action: string;
        subject_type: string;
        subject_id: string | null;
        details: string;
      }>(`select actor, action, subject_type, subject_id, details::text as details from audit_log where action like 'fhir_%' order by id`);
      expect(audited).toContainEqual(
        expect.objectContaining({ actor: 'fhir-client:demo-ris', action: 'fhir_read', subject_type: 'Patient', subject_id: patientId }),
      );
      const byName = audited.find((row) => row.action === 'fhir_search' && row.details.includes('"name"'));
      expect(JSON.parse(byName?.details ?? '{}')).toEqual({ found: 1, ids: [patientId], parameters: ['name'] });
      for (const row of audited) expect(row.details).not.toMatch(/fhirt|marg|1951|example\.com/i);
    });

    it('searches appointments by date, status, location and actor, pages them in start order and stays stable under inserts', async () => {
      const client = fixture.fhirClient(await fixture.token(SCOPES));
      const { clinicId, starts } = await freeStarts(fixture, client, 'gosford', 'ct-brain', 16);
      const bookAt = (index: number) =>
        booked(fixture, { exams: ['ct-brain'], clinicSlug: 'gosford', startsAt: starts[index], patient: patient() });
      // Times apart, so that no booking takes the grid times the next one needs.
      const made = [await bookAt(4), await bookAt(8), await bookAt(12)];
      const window = { location: `Location/${clinicId}`, date: `ge${starts[0] ?? ''}`, _count: 2 };
      const first = (await client.search({ resourceType: 'Appointment', searchParams: window })) as unknown as Bundle;
      const firstIds = entries<Appointment>(first).map((appointment) => appointment.id);
      expect(firstIds).toEqual([made[0]?.appointmentIds[0], made[1]?.appointmentIds[0]]);

      // Booked between two pages: one before the cursor (not shown: the pages are past it) and one after it.
      const before = await bookAt(0);
      const after = await bookAt(10);
      const second = (await client.nextPage({ bundle: first as never })) as unknown as Bundle;
      expectValidR4(second);
      expect(entries<Appointment>(second).map((appointment) => appointment.id)).toEqual([
        after.appointmentIds[0],
        made[2]?.appointmentIds[0],
      ]);
      expect(firstIds).not.toContain(before.appointmentIds[0]);

      // A hold is no appointment; a cancelled one is found as cancelled.
      const held = await hold(fixture.server.app, { exams: ['ct-brain'], clinicSlug: 'gosford', startsAt: starts[15] });
      expect(held.statusCode, held.body).toBe(201);
      const all = await search<Appointment>(client, 'Appointment', { ...window, _count: 100 });
      expect(all.map((appointment) => appointment.start)).not.toContain(starts[15]);
      expect(all).toHaveLength(5);
      // Arranged in the database: cancelling through the portal needs the patient's sign-in (tested in appointments/).
      await fixture.server.db.query(`update appointment set status = 'CANCELED', updated_at = now() where id = $1`, [
        made[1]?.appointmentIds[0],
      ]);
      const cancelled = await search<Appointment>(client, 'Appointment', { ...window, status: 'cancelled' });
      expect(cancelled.map((appointment) => [appointment.id, appointment.status])).toEqual([[made[1]?.appointmentIds[0], 'cancelled']]);
      expect((await search<Appointment>(client, 'Appointment', { ...window, status: 'booked', _count: 100 })).length).toBe(4);
      // actor: the patient (typed or bare), the clinic; repeated: both must hold.
      const patientId = made[2]?.patientId ?? '';
      for (const actor of [`Patient/${patientId}`, patientId, [`Location/${clinicId}`, `Patient/${patientId}`]])
        expect((await search<Appointment>(client, 'Appointment', { actor })).map((found) => found.id)).toEqual(made[2]?.appointmentIds);
      expect(await search(client, 'Appointment', { actor: [`Location/${clinicId}`, `Practitioner/${patientId}`] })).toEqual([]);
      const recently = await search<Appointment>(client, 'Appointment', {
        ...window,
        _lastUpdated: `ge${new Date(Date.now() - 60_000).toISOString()}`,
        _count: 100,
      });
      expect(recently.length).toBe(5);
    });

    it('refuses what it cannot read, finds nothing for ids that are not there, and needs each type’s scope', async () => {
      const client = fixture.fhirClient(await fixture.token(SCOPES));
      for (const [resourceType, searchParams] of [
        ['Appointment', { status: 'confirmed' }],
        ['Appointment', { date: 'yesterday' }],
        ['Appointment', { _cursor: Buffer.from(JSON.stringify({ k: 'not-a-key' })).toString('base64url') }],
        ['Patient', { birthdate: '1951-13-45x' }],
        ['QuestionnaireResponse', { authored: 'soon' }],
        ['Appointment', { actor: 'Location/../../x' }],
      ] as const) {
        const status = await client.search({ resourceType, searchParams }).then(
          () => 200,
          (error: { response?: { status?: number } }) => error.response?.status,
        );
        expect(status, `${resourceType} ${JSON.stringify(searchParams)}`).toBe(400);
      }
      for (const resourceType of ['Patient', 'Appointment', 'QuestionnaireResponse']) {
        const missing = await client.read({ resourceType, id: '00000000-0000-4000-8000-000000000000' }).then(
          () => 200,
          (error: { response?: { status?: number } }) => error.response?.status,
        );
        expect(missing).toBe(404);
      }
      const directoryOnly = fixture.fhirClient(await fixture.token('system/Location.rs'));
      for (const resourceType of ['Patient', 'Appointment', 'QuestionnaireResponse']) {
        const refused = await directoryOnly.search({ resourceType, searchParams: {} }).then(
          () => 200,
          (error: { response?: { status?: number } }) => error.response?.status,
        );
        expect(refused).toBe(403);
      }
    });
  });
});
