import { z } from 'zod';
import { PreparationSchema } from '@contract/api/preparation';
import {
  AppConfigSchema,
  BodyFigureConfigSchema,
  ContactClinicSchema,
  EnvironmentConfigSchema,
  IntegrationConfigSchema,
  RadiologyConfigSchema,
  ThemeConfigSchema,
} from '@contract/api/config';
import { APPOINTMENT_STATUSES } from '@contract/api/appointments';
import { ExamSearchTermsSchema, SearchSynonymsSchema } from '@contract/api/booking';
import { FormDetailsCodeSchema, INSURANCE_KINDS } from '@contract/api/booking-form-details';
import { IsoDateSchema, TimeOfDaySchema } from '@contract/api/common';

/**
 * The shape of the demo provider in resources/demo-provider/. The seed step validates the
 * files with these schemas before it writes anything, so a bad edit fails at start with the
 * file and field named instead of seeding half a provider.
 */

/** provider.json: the configuration the shell reads, plus the HTML pages. */
export const DemoProviderFileSchema = z.object({
  app: AppConfigSchema.omit({ version: true, versionHash: true }),
  radiology: RadiologyConfigSchema,
  bodyFigure: BodyFigureConfigSchema,
  integration: IntegrationConfigSchema,
  theme: ThemeConfigSchema,
  environment: EnvironmentConfigSchema,
  /** Sanitised on the way out, like every HTML string from configuration. */
  termsHtml: z.string().min(1),
  /** Origins allowed to frame the portal (frame-ancestors), e.g. https://www.example-radiology.com.au */
  embeddingOrigins: z.array(z.string().url()),
  /** Per-locale translation overlays merged over the web app's own catalogues. */
  translations: z.record(z.string(), z.record(z.string(), z.unknown())),
  /** File names inside resources/demo-provider/images/ for each application image. */
  images: z.record(z.string(), z.string()),
});
export type DemoProviderFile = z.infer<typeof DemoProviderFileSchema>;

/** regions.json */
export const DemoRegionsFileSchema = z.array(z.object({ slug: z.string().regex(/^[a-z0-9-]+$/), name: z.string().min(1) }));

/** clinics.json: a clinic with its resources (rooms or machines) and closed days. */
export const DemoClinicSchema = ContactClinicSchema.omit({ id: true, region: true }).extend({
  regionSlug: z.string(),
  resources: z
    .array(
      z.object({
        code: z.string().min(1),
        name: z.string().min(1),
        modalityCode: z.string(),
        /** Weekly opening hours of this resource; defaults to the clinic's when omitted. */
        breaks: z.array(z.object({ starts: TimeOfDaySchema, ends: TimeOfDaySchema })).default([]),
      }),
    )
    .min(1),
  closedDates: z.array(IsoDateSchema).default([]),
  /** Minutes before the start to arrive for check-in (the day plan). */
  arrivalMinutes: z.number().int().min(5).max(120).default(15),
  /** Where to park, as the patient reads it in the day plan. */
  parking: z.string().max(500).default(''),
});
export const DemoClinicsFileSchema = z.array(DemoClinicSchema).min(6);

/** exams.json: modalities, body parts and exams. */
export const DemoExamsFileSchema = z.object({
  modalities: z.array(z.object({ code: z.string().regex(/^[A-Z]+$/), name: z.string().min(1) })).min(8),
  bodyParts: z.array(z.object({ slug: z.string().regex(/^[a-z0-9-]+$/), name: z.string().min(1) })),
  exams: z
    .array(
      z.object({
        slug: z.string().regex(/^[a-z0-9-]+$/),
        examCode: z.string().min(1),
        name: z.string().min(1),
        modalityCode: z.string(),
        bodyPartSlugs: z.array(z.string()),
        durationMinutes: z.number().int().min(5).max(240),
        priority: z.number().int().min(0),
        /** Plain text, or parts with conditions on what the patient already did online. */
        preparationNotes: PreparationSchema,
        /** Hours without food before the exam (the check-in checklist shows the time it starts). */
        fastingHours: z.number().int().min(1).max(24).optional(),
        /** Water to drink before the scan, from and until minutes before the start (the day plan). */
        drink: z
          .object({ amount: z.string().min(1).max(80), fromMinutes: z.number().int().max(240), untilMinutes: z.number().int().min(0) })
          .refine((drink) => drink.fromMinutes >= drink.untilMinutes + 5, 'fromMinutes is at least 5 more than untilMinutes')
          .optional(),
        /** A medicine to stop, hours before the start (the day plan). */
        medicationStop: z.object({ medicine: z.string().min(1).max(120), hours: z.number().int().min(1).max(168) }).optional(),
        /** Minutes before the start to arrive when the clinic's usual lead is not enough. */
        arrivalMinutes: z.number().int().min(5).max(180).optional(),
        notes: z.string().nullable(),
        referralRequired: z.boolean(),
        /** Enquiry-only exams have no online times: booking them makes a booking request. */
        enquiryOnly: z.boolean(),
        documentTypeCodes: z.array(z.string()).default([]),
        /** The patient must give a Medicare number to book it. */
        medicareRequired: z.boolean().default(false),
        /** Other words patients use for the exam, for the exam search. */
        searchTerms: ExamSearchTermsSchema.default([]),
      }),
    )
    .min(25),
  /** Groups of words that mean the same for the exam search (x-ray, xray, radiograph). */
  searchSynonyms: SearchSynonymsSchema.default([]),
});

/** document-types.json */
export const DemoDocumentTypesFileSchema = z.array(
  z.object({ code: z.string().min(1), title: z.string().min(1), description: z.string() }),
);

/** referring-doctors.json */
export const DemoReferringDoctorsFileSchema = z.array(
  z.object({
    providerNumber: z.string().min(1),
    firstName: z.string().min(1),
    lastName: z.string().min(1),
    practiceName: z.string(),
    city: z.string(),
    postcode: z.string().regex(/^\d{4}$/),
  }),
);

// The statuses a demo appointment may have are the contract's (src-contract/api/appointments.ts).
export { APPOINTMENT_STATUSES };

/** A demo patient, as appointments.json and booking-requests.json give one. */
const DemoPatientSchema = z.object({
  title: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: IsoDateSchema,
  email: z.string().email(),
  contactNumber: z.string().regex(/^\d{10}$/),
  postcode: z.string().regex(/^\d{4}$/),
});

/**
 * appointments.json: a handful of appointments in several statuses. Times are given as a day
 * offset from the seed date and a local clinic time, so the demo always has upcoming bookings.
 */
export const DemoAppointmentsFileSchema = z.array(
  z
    .object({
      /** Demo booking keys are fixed so the README can link to them; real ones are random. */
      bookingKey: z.string().min(22),
      examSlug: z.string(),
      clinicSlug: z.string(),
      resourceCode: z.string(),
      dayOffset: z.number().int().min(-60).max(60).optional(),
      startTime: TimeOfDaySchema.optional(),
      /** Instead of a day and a time: this many minutes after the seed, rounded up to 5 (the check-in demo, inside its window). */
      startsInMinutes: z.number().int().min(15).max(600).optional(),
      status: z.enum(APPOINTMENT_STATUSES),
      patient: DemoPatientSchema,
      referringDoctorProviderNumber: z.string().nullable(),
    })
    .refine(
      (appointment) =>
        (appointment.startsInMinutes === undefined) === (appointment.dayOffset !== undefined && appointment.startTime !== undefined),
      'give either dayOffset and startTime, or startsInMinutes',
    ),
);

const question = z
  .object({ asked: z.boolean(), required: z.boolean() })
  .refine((q) => q.asked || !q.required, 'a required question must be asked');
const DemoFormDetailsSchema = z.object({
  insurance: question,
  ethnicity: question,
  referringPractice: question,
  insuranceTypes: z.array(z.object({ code: FormDetailsCodeSchema, kind: z.enum(INSURANCE_KINDS), label: z.string().min(1).max(100) })),
  ethnicities: z.array(z.object({ code: FormDetailsCodeSchema, label: z.string().min(1).max(200) })),
});

/** booking.json: booking rules, public holidays, walk-in exams and postcode locations. */
export const DemoBookingFileSchema = z.object({
  settings: z.object({
    leadMinutes: z.number().int().min(0).max(43200),
    horizonDays: z.number().int().min(1).max(730),
    holdMinutes: z.number().int().min(1).max(120),
    slotStepMinutes: z.union([z.literal(5), z.literal(15)]),
    maxDistanceKm: z.number().positive(),
    /** Where callback requests are mailed (docs/rules/callbacks.md); without it none is mailed. */
    callCentreEmail: z.email().optional(),
    defaultLocation: z.object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      label: z.string().min(1),
    }),
  }),
  publicHolidays: z.array(z.object({ state: z.string().regex(/^[A-Z]{2,3}$/), date: IsoDateSchema, name: z.string().min(1) })).default([]),
  walkInExams: z
    .array(
      z.object({
        modalityCode: z.string(),
        name: z.string().min(1),
        prepTime: z.number().int().min(0),
        minutesPrior: z.number().int().min(0),
      }),
    )
    .default([]),
  postcodes: z
    .array(
      z.object({
        postcode: z.string().regex(/^\d{4}$/),
        locality: z.string().min(1),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
      }),
    )
    .default([]),
  /** The booking form's details (docs/rules/booking.md#booking-form-details); without it the migration's defaults stand. */
  formDetails: DemoFormDetailsSchema.optional(),
});

/**
 * self-service.json: the provider's self-service rules, cancel reasons, consent forms,
 * and booking requests with their referral files (file names inside referrals/).
 */
export const DemoSelfServiceFileSchema = z.object({
  settings: z.object({
    priorMinutes: z.number().int().min(0).max(43200),
    walkInRescheduleAllowed: z.boolean(),
    cancelQuestionnaireRequired: z.boolean(),
    consentNotifyPatient: z.boolean(),
    /** Sanitised on the way out. */
    bookingRequestInfoHtml: z.string().min(1).nullable(),
  }),
  /**
   * Reminders before each appointment (docs/rules/reminders.md): hours before the start (at most
   * four, 1 to 336) and the quiet hours in the clinic's local time; without it the defaults stand
   * (72 and 24, quiet 21:00 to 08:00).
   */
  reminders: z
    .strictObject({
      leadHours: z
        .array(z.number().int().min(1).max(336))
        .max(4)
        .refine((hours) => new Set(hours).size === hours.length, 'each reminder time once'),
      quietHours: z.strictObject({
        start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 00:00 to 23:59'),
        end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 00:00 to 23:59'),
      }),
    })
    .optional(),
  cancelReasons: z.array(z.string().min(1).max(200)),
  consentForms: z.array(
    z.object({
      slug: z.string().regex(/^[a-z0-9-]+$/),
      title: z.string().min(1).max(200),
      html: z.string().min(1),
      /** null: every booking; else bookings with an exam of this modality. */
      modalityCode: z.string().nullable(),
    }),
  ),
  bookingRequests: z.array(
    z.object({
      bookingKey: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
      examSlugs: z.array(z.string()).min(1),
      clinicSlug: z.string().nullable(),
      patientNotes: z.string(),
      patient: DemoPatientSchema,
      referrals: z.array(z.string().min(1)),
    }),
  ),
});
