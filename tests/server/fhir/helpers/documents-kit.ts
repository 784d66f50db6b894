import { createHash } from 'node:crypto';
import type { Bundle } from '@medplum/fhirtypes';
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/test-app';
import { signIn } from '../../modules/appointments/self-service-kit';
import { appointmentBase, multipart, send } from '../../modules/attachments/attachments-kit';
import { availability, book, patient } from '../../modules/booking/booking-test-kit';

/**
 * Data for the documents tests made the way people make it: a booking through the booking API,
 * documents uploaded by the signed-in patient through the attachments API.
 */

const DAY = 24 * 60 * 60_000;

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
export const entries = <T>(bundle: Bundle): T[] => (bundle.entry ?? []).map((entry) => entry.resource as T);

export interface Booked {
  bookingKey: string;
  patientId: string;
  appointmentIds: string[];
  patientToken: string;
}

/** Books an MRI knee at Parramatta at its first free time from two days on, as a new patient, and signs them in. */
export async function bookAsNewPatient(server: TestApp, dateOfBirth: string): Promise<Booked> {
  const from = new Date(server.clock.now().getTime() + 2 * DAY).toISOString().slice(0, 10);
  const free = await availability(server.app, { exams: 'mri-knee', clinics: 'parramatta', from, days: 7 });
  const slot = free.clinics[0]?.days.flatMap((day) => day.slots)[0];
  expect(slot).toBeDefined();
  const booked = await book(server.app, {
    exams: ['mri-knee'],
    clinicSlug: 'parramatta',
    startsAt: slot?.startsAt ?? '',
    patient: patient({ dateOfBirth }),
  });
  expect(booked.statusCode, booked.body).toBe(201);
  const bookingKey = booked.json<{ bookingKey: string }>().bookingKey;
  const rows = await server.db.query<{ id: string; patient_id: string }>(
    `select id::text as id, patient_id::text as patient_id from appointment where booking_key = $1 order by lower(during), id`,
    [bookingKey],
  );
  const signed = await signIn(server.app, bookingKey, dateOfBirth);
  return {
    bookingKey,
    patientId: rows[0]?.patient_id ?? '',
    appointmentIds: rows.map((row) => row.id),
    patientToken: signed.browser.token ?? '',
  };
}

/** Uploads a document as the patient's booking page does; answers its id. */
export async function upload(
  server: TestApp,
  booked: Booked,
  file: { name: string; type: string; bytes: Uint8Array },
  fields: Record<string, string> = {},
): Promise<string> {
  const response = await send(
    server.app,
    { patientToken: booked.patientToken },
    'POST',
    appointmentBase(booked.bookingKey),
    multipart(fields, file),
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}
