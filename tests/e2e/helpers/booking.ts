import { expect, type APIRequestContext } from '@playwright/test';

/** A new appointment booked through the real booking API, at least two days ahead (outside the cancel limit). */
export async function bookFresh(request: APIRequestContext, patient: { email: string; dateOfBirth: string }, exam = 'xr-chest') {
  const clinics = await request.get(`/api/booking/clinics?exams=${exam}`);
  expect(clinics.status()).toBe(200);
  const clinic = ((await clinics.json()) as { clinics: { clinic: { slug: string } }[] }).clinics[0]?.clinic.slug ?? '';
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const free = await request.get(`/api/booking/availability?exams=${exam}&clinics=${clinic}&from=${from}&days=7`);
  const days = ((await free.json()) as { clinics: { days: { slots: { startsAt: string }[] }[] }[] }).clinics[0]?.days ?? [];
  const startsAt = days.flatMap((day) => day.slots.map((slot) => slot.startsAt))[0] ?? '';
  expect(startsAt).not.toBe('');
  const booked = await request.post('/api/booking/appointments', {
    headers: { 'Idempotency-Key': crypto.randomUUID(), 'X-Requested-With': 'XMLHttpRequest' },
    data: {
      exams: [exam],
      clinicSlug: clinic,
      startsAt,
      patient: {
        title: 'Mr',
        firstName: 'Liam',
        lastName: 'Journey',
        dateOfBirth: patient.dateOfBirth,
        email: patient.email,
        contactNumber: '0491570110',
        postalCode: '2150',
      },
    },
  });
  expect(booked.status()).toBe(201);
  const key = ((await booked.json()) as { bookingKey: string }).bookingKey;
  return { key, exam, clinic, startsAt };
}
