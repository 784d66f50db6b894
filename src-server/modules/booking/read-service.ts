import type {
  BookingSettings,
  Catalogue as CatalogueResponse,
  ClinicsResponse,
  Exam,
  ExamSearchQuery,
  MonthResponse,
  PostalCodeLocation,
  WalkInExam,
} from '@contract/api/booking';
import { createExamSearch, type ExamSearch } from '@contract/search/exam-search';
import type { Clock } from '../../platform/clock';
import { notFound } from '../../platform/errors';
import type { AvailabilityIndex, AvailabilityStore } from '../availability/public';
import { addDays } from '../schedule/public';
import { bookableExams, clinicBySlug, resolveExams, toClinic, toExam, type CachedCatalogue, type Catalogue } from './catalogue';
import type { BookingRepository } from './repository';
import { distanceKm, MINUTE, renderDayJson } from './slots';

/**
 * The read side of booking: catalogue, exam search, settings, postcodes, walk-in exams, clinics
 * near a place, free times per day and days with a free time in a month. Answers come from the
 * in-memory availability index; nothing here writes.
 */

/** Whole availability answers kept (each a few hundred KB at most). */
const ANSWER_CACHE_SIZE = 200;

export interface BookingReadsDeps {
  repository: BookingRepository;
  store: AvailabilityStore;
  clock: Clock;
  catalogue: Catalogue;
}

export function createBookingReads(deps: BookingReadsDeps) {
  const { repository, store, clock, catalogue } = deps;
  const answerCache = new Map<string, { index: AvailabilityIndex; revision: number; nowKey: number; validUntil: number; body: string }>();
  // One search index per loaded catalogue: a reloaded catalogue is a new object and gets its own.
  const searchIndexes = new WeakMap<object, ExamSearch>();

  const catalogueResponse = (cached: CachedCatalogue): CatalogueResponse => ({
    modalities: cached.modalities.map((modality) => ({ id: modality.id, slug: modality.code.toLowerCase(), name: modality.name })),
    bodyParts: cached.bodyParts,
    exams: cached.exams.map(toExam),
    searchSynonyms: cached.searchSynonyms,
  });

  return {
    async catalogue(): Promise<CatalogueResponse> {
      const { catalogue: cached } = await catalogue.load();
      return catalogueResponse(cached);
    },

    /**
     * The booking page's search (src-contract/search/exam-search.ts), best first, then narrowed by
     * modality and body part; without a search (or one of small words only) the catalogue's order.
     */
    async searchExams(query: ExamSearchQuery): Promise<Exam[]> {
      const { catalogue: cached } = await catalogue.load();
      let index = searchIndexes.get(cached);
      if (index === undefined) {
        index = createExamSearch(catalogueResponse(cached));
        searchIndexes.set(cached, index);
      }
      const modality = query.modality?.toLowerCase();
      const wanted = new Set(
        cached.exams
          .filter((exam) => modality === undefined || exam.modality_id === modality || exam.modality_code.toLowerCase() === modality)
          .filter((exam) => query.bodyPart === undefined || exam.body_part_slugs.includes(query.bodyPart))
          .map((exam) => exam.slug),
      );
      const found = (query.search === undefined ? null : index.search(query.search)) ?? cached.exams.map(toExam);
      return found.filter((exam) => wanted.has(exam.slug));
    },

    async settings(): Promise<BookingSettings> {
      const settings = await store.settings();
      return {
        defaultLocation: { latitude: settings.default_latitude, longitude: settings.default_longitude, label: settings.default_label },
        maxDistanceKm: settings.max_distance_km,
        leadMinutes: settings.lead_minutes,
        horizonDays: settings.horizon_days,
        holdMinutes: settings.hold_minutes,
      };
    },

    async postcode(code: string): Promise<PostalCodeLocation> {
      const row = await repository.postcode(code);
      if (row === null) throw notFound(`We could not find the postcode ${code}. Please check it and try again.`);
      return row;
    },

    async walkInExams(modality: string | undefined): Promise<WalkInExam[]> {
      const rows = await repository.walkInExams(modality ?? null);
      return rows.map((row) => ({ name: row.name, prepTime: row.prep_time, minutesPrior: row.minutes_prior }));
    },

    async clinics(query: { exams: string[]; lat?: number | undefined; lng?: number | undefined }): Promise<ClinicsResponse> {
      const { catalogue: cached, index } = await catalogue.load();
      const settings = await store.settings();
      const exams = resolveExams(cached, query.exams);
      const fallback = { latitude: settings.default_latitude, longitude: settings.default_longitude };
      let origin = fallback;
      let usedDefault = true;
      if (query.lat !== undefined && query.lng !== undefined) {
        const asked = { latitude: query.lat, longitude: query.lng };
        if (distanceKm(asked, fallback) <= settings.max_distance_km) {
          origin = asked;
          usedDefault = false;
        }
      }
      const modalityIds = [...new Set(exams.map((exam) => exam.modality_id))];
      const onlineExams = exams.filter((exam) => !exam.enquiry_only);
      const now = clock.now().getTime();
      const clinics = cached.clinics
        .filter((clinic) => modalityIds.every((modalityId) => clinic.modality_ids.includes(modalityId)))
        .map((clinic) => {
          // "Next available" is for the time the patient books: the exams sharing the first
          // exam's modality (others are walk-ins); none when everything needs an enquiry.
          const first = onlineExams[0];
          let nextAvailable: string | null = null;
          if (first !== undefined) {
            const shared = onlineExams.filter((exam) => exam.modality_id === first.modality_id);
            const duration = shared.reduce((total, exam) => total + exam.duration_minutes, 0);
            const next = index.nextFreeStart(clinic.id, first.modality_id, duration, now);
            nextAvailable = next === null ? null : new Date(next).toISOString();
          }
          return { clinic: toClinic(clinic), distanceKm: Math.round(distanceKm(origin, clinic) * 10) / 10, nextAvailable };
        })
        .sort((a, b) => a.distanceKm - b.distanceKm || a.clinic.name.localeCompare(b.clinic.name));
      return { origin: { ...origin, usedDefault }, clinics };
    },

    /**
     * Free times per clinic and day (AvailabilityResponse), as JSON text assembled from the index's cached days:
     * a week of 50 clinics is thousands of slots, and rendering them again for every request
     * would cost more than finding them.
     */
    async availabilityJson(query: { exams: string[]; clinics: string[]; from: string; days: number }): Promise<string> {
      const { catalogue: cached, index } = await catalogue.load();
      const { modalityId, durationMinutes } = bookableExams(cached, query.exams);
      const clinics = query.clinics.map((slug) => clinicBySlug(cached, slug, 'clinics'));
      const now = clock.now().getTime();
      // A whole answer is reused while nothing it depends on moved: no change in the index, the
      // lead-time cut-off still before the same grid time, and no counted hold expired.
      const key = `${query.exams.join(',')}|${query.clinics.join(',')}|${query.from}|${query.days}`;
      const nowKey = Math.ceil((now + index.rules.leadMinutes * MINUTE) / (index.rules.slotStepMinutes * MINUTE));
      const reuse = answerCache.get(key);
      if (
        reuse !== undefined &&
        reuse.index === index &&
        reuse.revision === index.revision &&
        reuse.nowKey === nowKey &&
        now < reuse.validUntil
      ) {
        return reuse.body;
      }
      const validity = { until: Number.POSITIVE_INFINITY };
      const parts = clinics.map((clinic) => {
        const days: string[] = [];
        let date = query.from;
        for (let day = 0; day < query.days; day++, date = addDays(date, 1)) {
          const isoDate = date;
          days.push(
            index.dayJson(
              clinic.id,
              modalityId,
              durationMinutes,
              isoDate,
              now,
              (starts) => renderDayJson(isoDate, starts, clinic.time_zone),
              validity,
            ),
          );
        }
        return `{"clinicSlug":${JSON.stringify(clinic.slug)},"timeZone":${JSON.stringify(clinic.time_zone)},"days":[${days.join(',')}]}`;
      });
      const body = `{"clinics":[${parts.join(',')}]}`;
      if (answerCache.size >= ANSWER_CACHE_SIZE) answerCache.clear();
      answerCache.set(key, { index, revision: index.revision, nowKey, validUntil: validity.until, body });
      return body;
    },

    async month(query: { exams: string[]; clinics: string[]; month: string }): Promise<MonthResponse> {
      const { catalogue: cached, index } = await catalogue.load();
      const { modalityId, durationMinutes } = bookableExams(cached, query.exams);
      const clinics = query.clinics.map((slug) => clinicBySlug(cached, slug, 'clinics'));
      const now = clock.now().getTime();
      const first = `${query.month}-01`;
      const days: MonthResponse['days'] = [];
      for (let date = first; date.startsWith(query.month); date = addDays(date, 1)) {
        days.push({ date, available: clinics.some((clinic) => index.hasFreeStart(clinic.id, modalityId, durationMinutes, date, now)) });
      }
      return { days };
    },
  };
}

export type BookingReads = ReturnType<typeof createBookingReads>;
