import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { APPLICATION_IMAGES, SUPPORTED_LOCALES, type ApplicationImage } from '@contract/api/config';
import { detectImageType, type ImageContentType } from '../../platform/content-type';
import { isValidTimeZone } from '../../platform/time-zone';
import {
  DemoAppointmentsFileSchema,
  DemoBookingFileSchema,
  DemoClinicsFileSchema,
  DemoDocumentTypesFileSchema,
  DemoExamsFileSchema,
  DemoProviderFileSchema,
  DemoReferringDoctorsFileSchema,
  DemoRegionsFileSchema,
  DemoSelfServiceFileSchema,
} from './demo-provider-schema';
import { readDemoQuestionnaires, type DemoQuestionnaires } from './demo-questionnaires';
import { readDemoReferrerFeedback, type DemoReferrerFeedback } from './demo-referrer-feedback';

/**
 * Reads and checks the demo provider in resources/demo-provider/ before anything is written:
 * every file against its schema, then the references between files (a clinic's region, an exam's
 * modality, an appointment's resource…), then the images by their bytes. Every problem is
 * reported with its file and field, all at once, so a bad edit is fixed in one go.
 */

export const DEMO_PROVIDER_DIR = fileURLToPath(new URL('../../../resources/demo-provider/', import.meta.url));

export interface DemoImage {
  name: ApplicationImage;
  contentType: ImageContentType;
  content: Uint8Array;
}

export interface DemoProvider {
  provider: z.infer<typeof DemoProviderFileSchema>;
  regions: z.infer<typeof DemoRegionsFileSchema>;
  clinics: z.infer<typeof DemoClinicsFileSchema>;
  exams: z.infer<typeof DemoExamsFileSchema>;
  documentTypes: z.infer<typeof DemoDocumentTypesFileSchema>;
  referringDoctors: z.infer<typeof DemoReferringDoctorsFileSchema>;
  appointments: z.infer<typeof DemoAppointmentsFileSchema>;
  booking: z.infer<typeof DemoBookingFileSchema>;
  selfService: z.infer<typeof DemoSelfServiceFileSchema>;
  images: DemoImage[];
  /** Booking-request referral files by file name (referrals/). */
  referrals: Map<string, Uint8Array>;
  /** questionnaires.json; empty when the file is absent. */
  questionnaires?: DemoQuestionnaires;
  /** referrer-feedback.json; empty when the file is absent. */
  referrerFeedback?: DemoReferrerFeedback[];
}

export class DemoProviderError extends Error {
  constructor(
    readonly directory: string,
    readonly problems: string[],
  ) {
    super(`The demo provider in ${directory} is not valid:\n${problems.map((line) => `- ${line}`).join('\n')}`);
    this.name = 'DemoProviderError';
  }
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`),
    '',
  );
}

async function readJson<S extends z.ZodType>(directory: string, file: string, schema: S, problems: string[]): Promise<z.infer<S> | null> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(directory, file), 'utf8'));
  } catch (error) {
    problems.push(`${file}: cannot be read as JSON: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) problems.push(`${file}: ${fieldPath(issue.path) || '(whole file)'}: ${issue.message}`);
    return null;
  }
  return result.data;
}

function duplicates(values: readonly string[]): string[] {
  return [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];
}

function checkReferences(data: Omit<DemoProvider, 'images' | 'referrals'>, problems: string[]): void {
  const { regions, clinics, exams, documentTypes, referringDoctors, appointments, provider } = data;
  const regionSlugs = new Set(regions.map((region) => region.slug));
  const modalityCodes = new Set(exams.modalities.map((modality) => modality.code));
  const bodyPartSlugs = new Set(exams.bodyParts.map((part) => part.slug));
  const documentTypeCodes = new Set(documentTypes.map((type) => type.code));
  const doctorNumbers = new Set(referringDoctors.map((doctor) => doctor.providerNumber));
  const examsBySlug = new Map(exams.exams.map((exam) => [exam.slug, exam]));
  const clinicsBySlug = new Map(clinics.map((clinic) => [clinic.slug, clinic]));

  for (const [file, label, values] of [
    ['regions.json', 'region slug', regions.map((region) => region.slug)],
    ['clinics.json', 'clinic slug', clinics.map((clinic) => clinic.slug)],
    ['exams.json', 'modality code', exams.modalities.map((modality) => modality.code)],
    ['exams.json', 'body part slug', exams.bodyParts.map((part) => part.slug)],
    ['exams.json', 'exam slug', exams.exams.map((exam) => exam.slug)],
    ['exams.json', 'exam code', exams.exams.map((exam) => exam.examCode)],
    ['document-types.json', 'code', documentTypes.map((type) => type.code)],
    ['referring-doctors.json', 'provider number', referringDoctors.map((doctor) => doctor.providerNumber)],
    ['appointments.json', 'booking key', appointments.map((appointment) => appointment.bookingKey)],
  ] as const) {
    for (const value of duplicates(values)) problems.push(`${file}: duplicate ${label} '${value}'`);
  }

  clinics.forEach((clinic, index) => {
    const at = `clinics.json: [${index}]`;
    if (!regionSlugs.has(clinic.regionSlug)) problems.push(`${at}.regionSlug: unknown region '${clinic.regionSlug}'`);
    if (!isValidTimeZone(clinic.timeZone)) problems.push(`${at}.timeZone: unknown time zone '${clinic.timeZone}'`);
    clinic.resources.forEach((resource, resourceIndex) => {
      if (!modalityCodes.has(resource.modalityCode)) {
        problems.push(`${at}.resources[${resourceIndex}].modalityCode: unknown modality '${resource.modalityCode}'`);
      }
    });
    for (const code of duplicates(clinic.resources.map((resource) => resource.code))) {
      problems.push(`${at}.resources: duplicate resource code '${code}'`);
    }
  });

  exams.exams.forEach((exam, index) => {
    const at = `exams.json: exams[${index}]`;
    if (!modalityCodes.has(exam.modalityCode)) problems.push(`${at}.modalityCode: unknown modality '${exam.modalityCode}'`);
    exam.bodyPartSlugs.forEach((slug, slugIndex) => {
      if (!bodyPartSlugs.has(slug)) problems.push(`${at}.bodyPartSlugs[${slugIndex}]: unknown body part '${slug}'`);
    });
    exam.documentTypeCodes.forEach((code, codeIndex) => {
      if (!documentTypeCodes.has(code)) problems.push(`${at}.documentTypeCodes[${codeIndex}]: unknown document type '${code}'`);
    });
  });

  appointments.forEach((appointment, index) => {
    const at = `appointments.json: [${index}]`;
    const exam = examsBySlug.get(appointment.examSlug);
    if (exam === undefined) problems.push(`${at}.examSlug: unknown exam '${appointment.examSlug}'`);
    const clinic = clinicsBySlug.get(appointment.clinicSlug);
    if (clinic === undefined) {
      problems.push(`${at}.clinicSlug: unknown clinic '${appointment.clinicSlug}'`);
      return;
    }
    const resource = clinic.resources.find((candidate) => candidate.code === appointment.resourceCode);
    if (resource === undefined) {
      problems.push(`${at}.resourceCode: clinic '${clinic.slug}' has no resource '${appointment.resourceCode}'`);
    } else if (exam !== undefined && resource.modalityCode !== exam.modalityCode) {
      problems.push(`${at}.resourceCode: resource '${resource.code}' is ${resource.modalityCode} but the exam is ${exam.modalityCode}`);
    }
    const doctor = appointment.referringDoctorProviderNumber;
    if (doctor !== null && !doctorNumbers.has(doctor)) {
      problems.push(`${at}.referringDoctorProviderNumber: unknown referring doctor '${doctor}'`);
    }
  });

  data.booking.walkInExams.forEach((walkIn, index) => {
    if (!modalityCodes.has(walkIn.modalityCode)) {
      problems.push(`booking.json: walkInExams[${index}].modalityCode: unknown modality '${walkIn.modalityCode}'`);
    }
  });
  for (const value of duplicates(data.booking.postcodes.map((postcode) => postcode.postcode))) {
    problems.push(`booking.json: duplicate postcode '${value}'`);
  }

  const { selfService } = data;
  for (const value of duplicates(selfService.cancelReasons)) problems.push(`self-service.json: duplicate cancel reason '${value}'`);
  for (const value of duplicates(selfService.consentForms.map((form) => form.slug)))
    problems.push(`self-service.json: duplicate consent form slug '${value}'`);
  selfService.consentForms.forEach((form, index) => {
    if (form.modalityCode !== null && !modalityCodes.has(form.modalityCode)) {
      problems.push(`self-service.json: consentForms[${index}].modalityCode: unknown modality '${form.modalityCode}'`);
    }
  });
  const appointmentKeys = new Set(appointments.map((appointment) => appointment.bookingKey));
  for (const value of duplicates(selfService.bookingRequests.map((request) => request.bookingKey))) {
    problems.push(`self-service.json: duplicate booking request key '${value}'`);
  }
  selfService.bookingRequests.forEach((request, index) => {
    const at = `self-service.json: bookingRequests[${index}]`;
    if (appointmentKeys.has(request.bookingKey)) problems.push(`${at}.bookingKey: '${request.bookingKey}' is also an appointment's key`);
    const clinic = request.clinicSlug === null ? null : clinicsBySlug.get(request.clinicSlug);
    if (clinic === undefined) problems.push(`${at}.clinicSlug: unknown clinic '${request.clinicSlug ?? ''}'`);
    request.examSlugs.forEach((slug, slugIndex) => {
      const exam = examsBySlug.get(slug);
      if (exam === undefined) problems.push(`${at}.examSlugs[${slugIndex}]: unknown exam '${slug}'`);
      else if (!exam.enquiryOnly) problems.push(`${at}.examSlugs[${slugIndex}]: '${slug}' is bookable online, not a booking-request exam`);
      else if (
        clinic !== null &&
        clinic !== undefined &&
        !clinic.resources.some((resource) => resource.modalityCode === exam.modalityCode)
      ) {
        problems.push(`${at}.examSlugs[${slugIndex}]: clinic '${clinic.slug}' has no ${exam.modalityCode} resource`);
      }
    });
  });

  for (const locale of Object.keys(provider.translations)) {
    if (!SUPPORTED_LOCALES.some((supported) => supported === locale)) {
      problems.push(`provider.json: translations.${locale}: not a supported locale (${SUPPORTED_LOCALES.join(', ')})`);
    }
  }
  for (const name of Object.keys(provider.images)) {
    if (!APPLICATION_IMAGES.some((image) => image === name)) {
      problems.push(`provider.json: images.${name}: not an application image (${APPLICATION_IMAGES.join(', ')})`);
    }
  }
}

async function readImages(directory: string, images: Record<string, string>, problems: string[]): Promise<DemoImage[]> {
  const result: DemoImage[] = [];
  for (const name of APPLICATION_IMAGES) {
    const file = images[name];
    if (file === undefined) continue;
    // A bare file name only: the provider file must not reach outside images/.
    if (basename(file) !== file || file.startsWith('.')) {
      problems.push(`provider.json: images.${name}: '${file}' must be a file name inside images/`);
      continue;
    }
    let content: Uint8Array;
    try {
      content = await readFile(join(directory, 'images', file));
    } catch {
      problems.push(`provider.json: images.${name}: images/${file} cannot be read`);
      continue;
    }
    const contentType = detectImageType(content);
    if (contentType === null) {
      problems.push(`images/${file}: not a PNG, JPEG, GIF, WebP, ICO or script-free SVG (checked by its bytes)`);
      continue;
    }
    result.push({ name, contentType, content });
  }
  return result;
}

/** Referral files of the demo booking requests: bare names inside referrals/, PDF or PNG/JPEG by their bytes. */
async function readReferrals(
  directory: string,
  selfService: DemoProvider['selfService'],
  problems: string[],
): Promise<Map<string, Uint8Array>> {
  const result = new Map<string, Uint8Array>();
  for (const [index, request] of selfService.bookingRequests.entries()) {
    for (const file of request.referrals) {
      if (result.has(file)) continue;
      if (basename(file) !== file || file.startsWith('.')) {
        problems.push(`self-service.json: bookingRequests[${index}].referrals: '${file}' must be a file name inside referrals/`);
        continue;
      }
      let content: Uint8Array;
      try {
        content = await readFile(join(directory, 'referrals', file));
      } catch {
        problems.push(`self-service.json: bookingRequests[${index}].referrals: referrals/${file} cannot be read`);
        continue;
      }
      const isPdf = new TextDecoder().decode(content.subarray(0, 5)) === '%PDF-';
      const image = detectImageType(content);
      if (!isPdf && image !== 'image/png' && image !== 'image/jpeg') {
        problems.push(`referrals/${file}: not a PDF, PNG or JPEG (checked by its bytes)`);
        continue;
      }
      result.set(file, content);
    }
  }
  return result;
}

/** Reads and validates the whole demo provider; throws DemoProviderError listing every problem. */
export async function loadDemoProvider(directory: string = DEMO_PROVIDER_DIR): Promise<DemoProvider> {
  const problems: string[] = [];
  const [provider, regions, clinics, exams, documentTypes, referringDoctors, appointments, booking, selfService] = await Promise.all([
    readJson(directory, 'provider.json', DemoProviderFileSchema, problems),
    readJson(directory, 'regions.json', DemoRegionsFileSchema, problems),
    readJson(directory, 'clinics.json', DemoClinicsFileSchema, problems),
    readJson(directory, 'exams.json', DemoExamsFileSchema, problems),
    readJson(directory, 'document-types.json', DemoDocumentTypesFileSchema, problems),
    readJson(directory, 'referring-doctors.json', DemoReferringDoctorsFileSchema, problems),
    readJson(directory, 'appointments.json', DemoAppointmentsFileSchema, problems),
    readJson(directory, 'booking.json', DemoBookingFileSchema, problems),
    readJson(directory, 'self-service.json', DemoSelfServiceFileSchema, problems),
  ]);
  if (
    provider === null ||
    regions === null ||
    clinics === null ||
    exams === null ||
    documentTypes === null ||
    referringDoctors === null ||
    appointments === null ||
    booking === null ||
    selfService === null
  ) {
    throw new DemoProviderError(directory, problems);
  }
  const data = { provider, regions, clinics, exams, documentTypes, referringDoctors, appointments, booking, selfService };
  checkReferences(data, problems);
  const images = await readImages(directory, provider.images, problems);
  const referrals = await readReferrals(directory, selfService, problems);
  const questionnaires = await readDemoQuestionnaires(
    directory,
    {
      modalityCodes: new Set(exams.modalities.map((modality) => modality.code)),
      examSlugs: new Set(exams.exams.map((exam) => exam.slug)),
      documentTypeCodes: new Set(documentTypes.map((type) => type.code)),
    },
    problems,
  );
  const referrerFeedback = await readDemoReferrerFeedback(directory, problems);
  if (problems.length > 0) throw new DemoProviderError(directory, problems);
  return { ...data, images, referrals, questionnaires, referrerFeedback };
}
