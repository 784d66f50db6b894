import type { PatientForm } from '../../../../src-web/features/booking/booking-patient-form';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AvailabilityResponse, Catalogue, ClinicWithDistance, DaySlots, Exam, MonthResponse, WalkInExam } from '@contract/api/booking';
import { json, type RouteHandler } from '../../helpers/api-server';

/** Contract-typed answers of the booking API for web tests (the e2e journeys use the real server). */

function exam(partial: Partial<Exam> & Pick<Exam, 'slug' | 'name' | 'modalityId' | 'modalityName' | 'bodyPartSlugs'>): Exam {
  return {
    priority: 1,
    examCode: partial.slug.toUpperCase(),
    examNotes: null,
    notes: null,
    showBookingRequestInfoModal: false,
    enquiryOnly: false,
    durationMinutes: 20,
    medicareRequired: false,
    preparationNotes: `Prepare for ${partial.name}.`,
    ...partial,
  };
}

export const CATALOGUE: Catalogue = {
  modalities: [
    { id: 'm-ct', slug: 'ct', name: 'CT' },
    { id: 'm-mr', slug: 'mr', name: 'MRI' },
    { id: 'm-xr', slug: 'xr', name: 'X-ray' },
    { id: 'm-ir', slug: 'ir', name: 'Interventional radiology' },
  ],
  bodyParts: [
    { slug: 'head', name: 'Head' },
    { slug: 'knee', name: 'Knee' },
    { slug: 'chest', name: 'Chest' },
    { slug: 'spine', name: 'Spine' },
    { slug: 'whole-body', name: 'Whole body' },
  ],
  exams: [
    exam({ slug: 'ct-brain', name: 'CT brain', modalityId: 'm-ct', modalityName: 'CT', bodyPartSlugs: ['head'], priority: 1 }),
    exam({ slug: 'ct-chest', name: 'CT chest', modalityId: 'm-ct', modalityName: 'CT', bodyPartSlugs: ['chest'], priority: 2 }),
    exam({
      slug: 'mri-knee',
      name: 'MRI knee',
      modalityId: 'm-mr',
      modalityName: 'MRI',
      bodyPartSlugs: ['knee'],
      priority: 3,
      medicareRequired: true,
    }),
    exam({ slug: 'xr-knee', name: 'X-ray knee', modalityId: 'm-xr', modalityName: 'X-ray', bodyPartSlugs: ['knee'], priority: 4 }),
    exam({
      slug: 'ir-spine-injection',
      name: 'Spinal injection',
      modalityId: 'm-ir',
      modalityName: 'Interventional radiology',
      bodyPartSlugs: ['spine'],
      priority: 5,
      enquiryOnly: true,
      showBookingRequestInfoModal: true,
    }),
  ],
};

/** A Sydney clinic with its distance from the patient; each clinic names only what sets it apart. */
function sydneyClinic(
  clinic: Pick<ClinicWithDistance['clinic'], 'id' | 'slug' | 'name' | 'latitude' | 'longitude' | 'phone'> & {
    street: string;
    postcode: string;
  },
  distanceKm: number,
  nextAvailable: string | null,
): ClinicWithDistance {
  const { street, postcode, ...rest } = clinic;
  return {
    clinic: {
      ...rest,
      region: { id: 'r1', slug: 'sydney', name: 'Sydney' },
      address: { street, suburb: clinic.name, state: 'NSW', postcode },
      timeZone: 'Australia/Sydney',
    },
    distanceKm,
    nextAvailable,
  };
}

export const CLINICS: ClinicWithDistance[] = [
  sydneyClinic(
    {
      id: 'c1',
      slug: 'parramatta',
      name: 'Parramatta',
      street: '118 Macquarie Street',
      postcode: '2150',
      latitude: -33.8156,
      longitude: 151.0029,
      phone: '02 5550 0110',
    },
    2.4,
    '2026-11-24T22:30:00.000Z',
  ),
  sydneyClinic(
    {
      id: 'c2',
      slug: 'chatswood',
      name: 'Chatswood',
      street: '1 Victoria Avenue',
      postcode: '2067',
      latitude: -33.7969,
      longitude: 151.1803,
      phone: '02 5550 0120',
    },
    14.9,
    null,
  ),
];

export const WALK_IN: WalkInExam = { name: 'X-ray walk-in', prepTime: 5, minutesPrior: 30 };

/** Two free times a day (09:30 and 14:00 Sydney summer time) on every day of the range. */
export function daysFrom(from: string, days: number): DaySlots[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: days }, (_, index) => {
    const date = new Date(start + index * 86_400_000).toISOString().slice(0, 10);
    const previous = new Date(start + (index - 1) * 86_400_000).toISOString().slice(0, 10);
    return {
      date,
      slots: [
        { startsAt: `${previous}T22:30:00.000Z`, localTime: '09:30' },
        { startsAt: `${date}T03:00:00.000Z`, localTime: '14:00' },
      ],
    };
  });
}

export interface RecordedBookingRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** Reads a JSON body, records the request, and hands both to the route's answer. */
export function recording(
  log: RecordedBookingRequest[],
  answer: (request: RecordedBookingRequest, response: ServerResponse) => void,
): RouteHandler {
  return (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', 'http://localhost');
      const recorded: RecordedBookingRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      log.push(recorded);
      answer(recorded, response);
    });
  };
}

export interface BookingRoutesOptions {
  /** Answers POST /api/booking/appointments (default: 201 with one booked appointment). */
  createAppointments?: (request: RecordedBookingRequest, response: ServerResponse) => void;
  hold?: (request: RecordedBookingRequest, response: ServerResponse) => void;
  bookingRequests?: (request: RecordedBookingRequest, response: ServerResponse) => void;
  clinics?: ClinicWithDistance[];
}

export const BOOKING_KEY = 'k3y-Booking-Key-0000000001';

/** The booking API routes for renderApp / startApiServer, recording every request in `log`. */
export function bookingRoutes(log: RecordedBookingRequest[], options: BookingRoutesOptions = {}): Record<string, RouteHandler> {
  let holds = 0;
  return {
    'GET /api/booking/catalogue': recording(log, (_request, response) => json(response, 200, CATALOGUE)),
    'GET /api/booking/settings': recording(log, (_request, response) =>
      json(response, 200, {
        defaultLocation: { latitude: -33.8688, longitude: 151.2093, label: 'Sydney CBD' },
        maxDistanceKm: 200,
        leadMinutes: 60,
        horizonDays: 90,
        holdMinutes: 10,
      }),
    ),
    'GET /api/booking/postcodes/2150': recording(log, (_request, response) =>
      json(response, 200, { id: 'pc-2150', latitude: -33.81, longitude: 151.0 }),
    ),
    'GET /api/booking/postcodes/9999': recording(log, (_request, response) =>
      json(response, 404, { code: 'not_found', message: 'Unknown postcode' }),
    ),
    'GET /api/booking/clinics': recording(log, (request, response) =>
      json(response, 200, {
        origin: {
          latitude: Number(request.query.get('lat') ?? -33.8688),
          longitude: Number(request.query.get('lng') ?? 151.2093),
          usedDefault: !request.query.get('lat'),
        },
        clinics: options.clinics ?? CLINICS,
      }),
    ),
    'GET /api/booking/availability': recording(log, (request, response) => {
      const body: AvailabilityResponse = {
        clinics: (request.query.get('clinics') ?? '').split(',').map((clinicSlug) => ({
          clinicSlug,
          timeZone: 'Australia/Sydney',
          days: daysFrom(request.query.get('from') ?? '2026-11-23', Number(request.query.get('days') ?? 7)),
        })),
      };
      json(response, 200, body);
    }),
    'GET /api/booking/availability/month': recording(log, (request, response) => {
      const month = request.query.get('month') ?? '2026-11';
      const body: MonthResponse = {
        days: Array.from({ length: 28 }, (_, index) => ({
          date: `${month}-${String(index + 1).padStart(2, '0')}`,
          available: index % 2 === 0,
        })),
      };
      json(response, 200, body);
    }),
    'POST /api/booking/holds': recording(
      log,
      options.hold ??
        ((_request, response) => {
          holds += 1;
          json(response, 201, { holdId: `hold-${String(holds).padStart(20, '0')}`, expiresAt: '2026-11-23T23:59:00.000Z' });
        }),
    ),
    'GET /api/booking/walk-in-exams': recording(log, (_request, response) => json(response, 200, [WALK_IN])),
    'POST /api/booking/appointments': recording(
      log,
      options.createAppointments ??
        ((request, response) => {
          const body = request.body;
          const startsAt =
            typeof body === 'object' && body !== null && 'startsAt' in body && typeof body.startsAt === 'string' ? body.startsAt : '';
          json(response, 201, {
            bookingKey: BOOKING_KEY,
            status: 'BOOKED',
            appointments: [
              {
                success: true,
                errorMessage: null,
                id: 'a1',
                modalityName: 'CT',
                examName: 'CT brain',
                clinicName: 'Parramatta',
                date: startsAt,
                patientYearOfBirth: 1980,
                patientEmailHash: 'hash',
              },
            ],
          });
        }),
    ),
    'POST /api/booking/booking-requests': recording(
      log,
      options.bookingRequests ??
        ((_request, response) =>
          json(response, 201, { bookingKey: BOOKING_KEY, results: [{ examSlug: 'ir-spine-injection', success: true, slug: 'br-1' }] })),
    ),
  };
}

/** DELETE /api/booking/holds/{id} for the first holds the fake hands out (the test server matches whole paths). */
export function holdReleaseRoutes(log: RecordedBookingRequest[], count = 10): Record<string, RouteHandler> {
  const routes: Record<string, RouteHandler> = {};
  for (let hold = 1; hold <= count; hold += 1) {
    routes[`DELETE /api/booking/holds/hold-${String(hold).padStart(20, '0')}`] = recording(log, (_request, response) => {
      response.writeHead(204).end();
    });
  }
  return routes;
}

/** Valid patient details in every field the form always has. */
export function fillPatient(form: PatientForm) {
  form.setValue('title', 'Ms');
  form.setValue('firstName', 'Amelia');
  form.setValue('lastName', "O'Sample");
  form.setValue('dateOfBirth', '1968-11-02');
  form.setValue('email', 'amelia@example.com');
  form.setValue('contactNumber', '0491 570 156');
  form.setValue('postalCode', '2067');
}
