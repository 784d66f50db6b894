import { randomUUID } from 'node:crypto';
import type { Appointment, Bundle, Parameters, Patient, QuestionnaireResponse, Slot } from '@medplum/fhirtypes';
import type { Client } from 'fhir-kit-client';
import { describe, expect, it } from 'vitest';
import { expectValidR4 } from './helpers/r4-validation';
import { useFhirServer, type FhirServerFixture } from './helpers/fhir-server';
import { backends } from '../helpers/database';

// Appointment/$book through fhir-kit-client: a RIS books a free slot with the patient's details
// and the MRI screening answers, under the booking pages' own rules (the slot's freedom, the
// screening outcomes), safely retried with an Idempotency-Key.

const SCOPES = 'system/Appointment.crs system/Patient.rs system/QuestionnaireResponse.rs system/Schedule.rs system/Slot.rs';
const entries = <T>(bundle: Bundle): T[] => (bundle.entry ?? []).map((entry) => entry.resource as T);

let made = 0;
/** A new patient's details as a RIS sends them. */
function newPatient(overrides: Partial<Patient> = {}): Patient {
  made += 1;
  return {
    resourceType: 'Patient',
    name: [{ use: 'official', family: 'Bookwell', given: ['Imogen'], prefix: ['Ms'] }],
    birthDate: '1968-02-29',
    telecom: [
      { system: 'email', value: `imogen.${made}@example.org` },
      { system: 'phone', value: `+61 4 ${String(made).padStart(8, '0')}` },
    ],
    address: [{ postalCode: '2067' }],
    // MRI needs the patient's Medicare number.
    identifier: [{ system: 'http://ns.electronichealth.net.au/id/medicare-number', value: '2123456701' }],
    ...overrides,
  };
}

function screening(answers: { pacemaker?: string; metalInEyes?: string } = {}): QuestionnaireResponse {
  return {
    resourceType: 'QuestionnaireResponse',
    status: 'completed',
    questionnaire: 'urn:radiology-portal/Questionnaire/mri-safety-screening',
    item: [
      { linkId: 'pacemaker', answer: [{ valueCoding: { code: answers.pacemaker ?? 'no' } }] },
      { linkId: 'hasImplants', answer: [{ valueBoolean: false }] },
      { linkId: 'metalInEyes', answer: [{ valueCoding: { code: answers.metalInEyes ?? 'no' } }] },
      { linkId: 'claustrophobia', answer: [{ valueBoolean: true }] },
      { linkId: 'weightKg', answer: [{ valueInteger: 71 }] },
    ],
  };
}

function bookParameters(slotId: string, patient: Patient | string, answers: QuestionnaireResponse[] = [screening()]): Parameters {
  const participant = typeof patient === 'string' ? [{ actor: { reference: `Patient/${patient}` }, status: 'accepted' as const }] : [];
  return {
    resourceType: 'Parameters',
    parameter: [
      {
        name: 'appt-resource',
        resource: { resourceType: 'Appointment', status: 'proposed', slot: [{ reference: `Slot/${slotId}` }], participant },
      },
      ...(typeof patient === 'string' ? [] : [{ name: 'patient-resource', resource: patient }]),
      ...answers.map((answer) => ({ name: 'questionnaire-response', resource: answer })),
    ],
  };
}

/** The answer's status and body, also when refused. */
async function bookWith(client: Client, input: Parameters, idempotencyKey?: string): Promise<{ status: number; body: unknown }> {
  const options = idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': idempotencyKey } };
  return client.operation({ name: '$book', resourceType: 'Appointment', input: input as never, options }).then(
    (body) => ({ status: 200, body }),
    (error: { response?: { status?: number; data?: unknown } }) => ({ status: error.response?.status ?? 0, body: error.response?.data }),
  );
}

/** Free slots of an exam at a clinic (MRI knee at Chatswood), as the RIS finds them. */
async function freeSlots(
  fixture: FhirServerFixture,
  client: Client,
  count: number,
  at = { clinic: 'chatswood', exam: 'mri-knee' },
): Promise<Slot[]> {
  const [clinic] = await fixture.server.db.query<{ id: string }>(`select id::text as id from clinic where slug = $1`, [at.clinic]);
  const [exam] = await fixture.server.db.query<{ id: string }>(`select id::text as id from exam where slug = $1`, [at.exam]);
  const schedules = (await client.search({
    resourceType: 'Schedule',
    searchParams: { actor: [`Location/${clinic?.id ?? ''}`, `HealthcareService/${exam?.id ?? ''}`] },
  })) as unknown as Bundle;
  const scheduleId = entries<{ id: string }>(schedules)[0]?.id ?? '';
  // Apart, so that no booking here takes the grid times another one needs.
  const slots = (await client.search({
    resourceType: 'Slot',
    searchParams: { schedule: scheduleId, _count: count * 6 },
  })) as unknown as Bundle;
  return entries<Slot>(slots).filter((_, index) => index % 6 === 0);
}

const statusOf = (error: unknown) => (error as { response?: { status?: number } }).response?.status;

describe.each(backends())('on %s', (backend) => {
  const fixture = useFhirServer(backend);

  describe('Appointment/$book through fhir-kit-client', () => {
    it('books a free slot with the patient’s details and screening answers; a retry with the same key answers the same booking', async () => {
      const client = fixture.fhirClient(await fixture.token(SCOPES));
      const [slot] = await freeSlots(fixture, client, 1);
      const key = randomUUID();
      const input = bookParameters(slot?.id ?? '', newPatient());
      const first = await bookWith(client, input, key);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expectValidR4(first.body as Bundle);
      const [appointment, ...others] = entries<Appointment>(first.body as Bundle);
      expect(others).toEqual([]);
      expect(appointment).toMatchObject({ status: 'booked', start: slot?.start, end: slot?.end });
      const patientRef =
        appointment?.participant.find((participant) => participant.actor?.reference?.startsWith('Patient/'))?.actor?.reference ?? '';

      // The slot is taken now; the patient is the one sent; the answers are the booking's.
      await expect(client.read({ resourceType: 'Slot', id: slot?.id ?? '' })).rejects.toSatisfy((error) => statusOf(error) === 404);
      const patient = (await client.read({ resourceType: 'Patient', id: patientRef.replace('Patient/', '') })) as unknown as Patient;
      expect(patient).toMatchObject({ birthDate: '1968-02-29', name: [{ family: 'Bookwell', given: ['Imogen'], prefix: ['Ms'] }] });
      expect(patient.telecom).toContainEqual(
        expect.objectContaining({ system: 'phone', value: expect.stringMatching(/^04\d{8}$/) as string }),
      );
      const answers = (await client.search({
        resourceType: 'QuestionnaireResponse',
        searchParams: { patient: patientRef },
      })) as unknown as Bundle;
      const [answer] = entries<QuestionnaireResponse>(answers);
      expect(answer?.item?.find((item) => item.linkId === 'weightKg')?.answer).toEqual([{ valueInteger: 71 }]);
      expect(answer?.extension?.[0]?.valueReference?.reference).toBe(`Appointment/${appointment?.id ?? ''}`);

      // The same request again with the same key: the same booking, nothing booked twice.
      const again = await bookWith(client, input, key);
      expect(again.status).toBe(200);
      expect(entries<Appointment>(again.body as Bundle).map((found) => found.id)).toEqual([appointment?.id]);
      const rows = await fixture.server.db.query(`select 1 from appointment where lower(during) = $1::timestamptz and status = 'BOOKED'`, [
        slot?.start,
      ]);
      expect(rows).toHaveLength(1);
      // The audit log names the system that booked.
      const [audited] = await fixture.server.db.query<{ actor: string }>(
        `select actor from audit_log where action = 'appointment.booked_by_system' and subject_id = $1`,
        [appointment?.id],
      );
      expect(audited?.actor).toBe('fhir-client:demo-ris');
      // The same key for another request is refused, and books nothing.
      const reused = await bookWith(client, bookParameters(slot?.id ?? '', newPatient()), key);
      expect(reused.status).toBe(422);
      expectValidR4(reused.body as never);
    });

    it('books a patient of an earlier booking again, and refuses a taken slot and a screening that denies the booking, booking nothing', async () => {
      const client = fixture.fhirClient(await fixture.token(SCOPES));
      const [one, two] = await freeSlots(fixture, client, 2);
      // A CT needs no Medicare number (which the portal does not keep with the patient's details).
      const [three] = await freeSlots(fixture, client, 1, { clinic: 'gosford', exam: 'ct-brain' });
      const firstBooking = await bookWith(client, bookParameters(one?.id ?? '', newPatient({ birthDate: '1990-06-01' })));
      expect(firstBooking.status, JSON.stringify(firstBooking.body)).toBe(200);
      const patientRef = entries<Appointment>(firstBooking.body as Bundle)[0]?.participant[0]?.actor?.reference ?? '';

      const taken = await bookWith(client, bookParameters(one?.id ?? '', newPatient()));
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'conflict' }] });

      const before = await fixture.server.db.query(`select id from appointment where status <> 'HELD'`);
      const denied = await bookWith(client, bookParameters(two?.id ?? '', newPatient(), [screening({ pacemaker: 'yes' })]));
      expect(denied.status).toBe(409);
      expect(JSON.stringify(denied.body)).toMatch(/pacemaker/);
      expect(await fixture.server.db.query(`select id from appointment where status <> 'HELD'`)).toHaveLength(before.length);

      // The earlier booking's patient, named by reference: booked with the same details.
      const rebooked = await bookWith(client, bookParameters(three?.id ?? '', patientRef.replace('Patient/', ''), []));
      expect(rebooked.status, JSON.stringify(rebooked.body)).toBe(200);
      const newRef = entries<Appointment>(rebooked.body as Bundle)[0]?.participant[0]?.actor?.reference ?? '';
      const rebookedPatient = (await client.read({ resourceType: 'Patient', id: newRef.replace('Patient/', '') })) as unknown as Patient;
      expect(rebookedPatient.birthDate).toBe('1990-06-01');
    });

    it('cancels a booked appointment by patch: the patient is told, the time is free again, a repeat changes nothing', async () => {
      const client = fixture.fhirClient(await fixture.token(SCOPES));
      const [slot] = await freeSlots(fixture, client, 1);
      const details = newPatient();
      const booked = await bookWith(client, bookParameters(slot?.id ?? '', details));
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      const id = entries<Appointment>(booked.body as Bundle)[0]?.id ?? '';
      const email = details.telecom?.find((point) => point.system === 'email')?.value ?? '';
      const cancel = [
        { op: 'replace', path: '/status', value: 'cancelled' },
        { op: 'add', path: '/cancelationReason', value: { text: 'Machine out of service' } },
      ];
      const patch = (jsonPatch: unknown[], on: Client = client) =>
        on.patch({ resourceType: 'Appointment', id, jsonPatch: jsonPatch as never }).then(
          (body) => ({ status: 200, body }),
          (error: { response?: { status?: number; data?: unknown } }) => ({
            status: error.response?.status ?? 0,
            body: error.response?.data,
          }),
        );

      const readOnly = fixture.fhirClient(await fixture.token('system/Appointment.rs'));
      expect((await patch(cancel, readOnly)).status).toBe(403);
      const other = await patch([{ op: 'replace', path: '/start', value: '2030-01-01T00:00:00Z' }]);
      expect(other.status).toBe(422);
      expectValidR4(other.body as never);
      expect((await client.read({ resourceType: 'Appointment', id })) as unknown as Appointment).toMatchObject({ status: 'booked' });

      const cancelled = await patch(cancel);
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expectValidR4(cancelled.body as never);
      expect(cancelled.body).toMatchObject({ id, status: 'cancelled' });
      // The time is free again, and the patient has the cancellation mail.
      expect(await client.read({ resourceType: 'Slot', id: slot?.id ?? '' })).toMatchObject({ status: 'free' });
      const mails = await fixture.server.db.query<{ kind: string }>(`select kind from outbox_mail where recipient = $1 order by id`, [
        email,
      ]);
      expect(mails.map((mail) => mail.kind)).toEqual(['booking_confirmation', 'appointment_cancelled']);
      const [change] = await fixture.server.db.query<{ actor: string; note: string }>(
        `select actor, note from appointment_change where action = 'CANCEL' order by id desc limit 1`,
      );
      expect(change).toEqual({ actor: 'staff', note: 'Machine out of service' });
      // Again: the same answer, no second mail.
      expect(await patch(cancel)).toMatchObject({ status: 200, body: { status: 'cancelled' } });
      expect(await fixture.server.db.query(`select 1 from outbox_mail where recipient = $1`, [email])).toHaveLength(2);
    });

    it('refuses what it cannot book with a 400 that names the element, and needs the write scope', async () => {
      const client = fixture.fhirClient(await fixture.token(SCOPES));
      const [slot] = await freeSlots(fixture, client, 1);
      const cases: Array<[Parameters, RegExp]> = [
        [{ resourceType: 'Parameters', parameter: [] }, /appt-resource/],
        [bookParameters('no-such-slot', newPatient()), /Appointment\.slot/],
        [bookParameters(slot?.id ?? '', newPatient({ birthDate: '1968-02-30' })), /Patient\.birthDate/],
        [bookParameters(slot?.id ?? '', newPatient({ telecom: [] })), /Patient\.telecom \(email\)/],
        [bookParameters(slot?.id ?? '', '00000000-0000-4000-8000-000000000000'), /Patient named as participant/],
        [
          bookParameters(slot?.id ?? '', newPatient(), [{ ...screening(), questionnaire: 'urn:radiology-portal/Questionnaire/nope' }]),
          /no questionnaire/,
        ],
        [
          bookParameters(slot?.id ?? '', newPatient(), [
            { ...screening(), item: [{ linkId: 'weightKg', answer: [{ valueInteger: 900 }] }] },
          ]),
          /./,
        ],
      ];
      for (const [input, message] of cases) {
        const refused = await bookWith(client, input);
        expect(refused.status, JSON.stringify(refused.body)).toBe(400);
        expectValidR4(refused.body as never);
        expect(JSON.stringify(refused.body)).toMatch(message);
      }
      expect((await bookWith(client, bookParameters(slot?.id ?? '', newPatient()), 'not-a-uuid')).status).toBe(400);
      expect(
        await fixture.server.db.query(`select id from appointment where lower(during) = $1::timestamptz and status <> 'CANCELED'`, [
          slot?.start,
        ]),
      ).toEqual([]);

      const readOnly = fixture.fhirClient(await fixture.token('system/Appointment.rs system/Slot.rs'));
      expect((await bookWith(readOnly, bookParameters(slot?.id ?? '', newPatient()))).status).toBe(403);
    });
  });
});
