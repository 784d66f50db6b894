import type { BookingClinic, Exam } from '@contract/api/booking';
import { clinicFields } from '../../db/clinic-columns';
import { validationError } from '../../platform/errors';
import type { AvailabilityIndex, AvailabilityStore } from '../availability/public';
import type { BookingRepository, ClinicRow, ExamRow } from './repository';

/**
 * The catalogue (modalities, body parts, exams, clinics, provider name) both sides of booking
 * read, cached until the availability store reloads its index, and the checks that turn the
 * slugs a request names into rows.
 */

export interface CachedCatalogue {
  modalities: Array<{ id: string; code: string; name: string }>;
  bodyParts: Array<{ slug: string; name: string }>;
  exams: ExamRow[];
  searchSynonyms: string[][];
  examsBySlug: Map<string, ExamRow>;
  clinics: ClinicRow[];
  clinicsBySlug: Map<string, ClinicRow>;
  providerName: string;
}

export function toExam(row: ExamRow): Exam {
  return {
    slug: row.slug,
    name: row.name,
    modalityId: row.modality_id,
    modalityName: row.modality_name,
    priority: row.priority,
    examCode: row.exam_code,
    // The preparation goes out once, as preparationNotes; the provider keeps no other exam notes.
    examNotes: null,
    notes: row.notes,
    showBookingRequestInfoModal: row.enquiry_only,
    enquiryOnly: row.enquiry_only,
    bodyPartSlugs: row.body_part_slugs,
    durationMinutes: row.duration_minutes,
    medicareRequired: row.medicare_required,
    preparationNotes: row.preparation_notes,
    searchTerms: row.search_terms,
  };
}

export function toClinic(row: ClinicRow): BookingClinic {
  return clinicFields(row);
}

export function resolveExams(cached: CachedCatalogue, slugs: readonly string[]): ExamRow[] {
  return slugs.map((slug) => {
    const exam = cached.examsBySlug.get(slug);
    if (exam === undefined) throw validationError('exams', `We could not find the exam '${slug}'.`);
    return exam;
  });
}

/** Exams that share one time: same modality, each bookable online. */
export function bookableExams(
  cached: CachedCatalogue,
  slugs: readonly string[],
): { exams: ExamRow[]; modalityId: string; durationMinutes: number } {
  const exams = resolveExams(cached, slugs);
  const enquiry = exams.find((exam) => exam.enquiry_only);
  if (enquiry !== undefined) {
    throw validationError('exams', `${enquiry.name} has no online times; please send a booking request for it instead.`);
  }
  const modalityId = exams[0]?.modality_id ?? '';
  if (exams.some((exam) => exam.modality_id !== modalityId)) {
    throw validationError(
      'exams',
      'Exams of different modalities cannot share one appointment time; book one of them and add the other as a walk-in exam.',
    );
  }
  return { exams, modalityId, durationMinutes: exams.reduce((total, exam) => total + exam.duration_minutes, 0) };
}

export function clinicBySlug(cached: CachedCatalogue, slug: string, field = 'clinicSlug'): ClinicRow {
  const clinic = cached.clinicsBySlug.get(slug);
  if (clinic === undefined) throw validationError(field, `We could not find the clinic '${slug}'.`);
  return clinic;
}

export function createCatalogue(deps: { repository: BookingRepository; store: AvailabilityStore }) {
  const { repository, store } = deps;
  let cache: { index: AvailabilityIndex; value: CachedCatalogue } | null = null;

  return {
    /** The catalogue changes when schedules or exams do; the store reloads its index then, so the index identity is the cache key. */
    async load(): Promise<{ catalogue: CachedCatalogue; index: AvailabilityIndex }> {
      const index = await store.fresh();
      if (cache?.index === index) return { catalogue: cache.value, index };
      const [modalities, bodyParts, exams, searchSynonyms, clinics, providerName] = [
        await repository.modalities(),
        await repository.bodyParts(),
        await repository.exams(),
        await repository.searchSynonyms(),
        await repository.clinics(),
        await repository.providerName(),
      ];
      const value: CachedCatalogue = {
        modalities,
        bodyParts,
        exams,
        searchSynonyms,
        examsBySlug: new Map(exams.map((exam) => [exam.slug, exam])),
        clinics,
        clinicsBySlug: new Map(clinics.map((clinic) => [clinic.slug, clinic])),
        providerName: providerName ?? 'Radiology',
      };
      cache = { index, value };
      return { catalogue: value, index };
    },
  };
}

export type Catalogue = ReturnType<typeof createCatalogue>;
