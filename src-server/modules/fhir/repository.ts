import { CLINIC_COLUMNS, type ClinicColumnsRow } from '../../db/clinic-columns';
import type { Queryable } from '../../db/connection';
import { SqlFilter } from './sql-filter';

/**
 * What the FHIR API reads of the provider's configuration (clinics, exams, referring doctors):
 * configuration tables, which every module may read (docs/server.md#table-ownership); the FHIR
 * API writes none. Each search is a keyset page: rows after `after` (the last id of the previous
 * page) in id order, so a row inserted between two pages neither repeats nor hides another.
 */

export type ClinicRow = ClinicColumnsRow;

export type ExamRow = {
  id: string;
  slug: string;
  exam_code: string;
  name: string;
  modality_id: string;
  modality_code: string;
  modality_name: string;
  duration_minutes: number;
  preparation_notes: string;
  referral_required: boolean;
  enquiry_only: boolean;
};

export type ReferrerRow = {
  id: string;
  provider_number: string;
  first_name: string;
  last_name: string;
  practice_name: string;
  city: string;
  postcode: string;
};

/** One page's filter: ids (the _id parameter), a name prefix, after a cursor, at most `limit` rows. */
export interface PageQuery {
  ids?: readonly string[];
  /** Case-insensitive prefixes of the name (FHIR string search): each group must match, by any of its prefixes. */
  names?: ReadonlyArray<readonly string[]>;
  /** Referring doctors only: provider numbers; any of them. */
  identifiers?: readonly string[];
  after?: string;
  limit: number;
}

/** The where clause of a page and its parameters, numbered from $1; ids that are no uuid match nothing. */
function pageFilter(query: PageQuery, columns: { id: string; name: string[]; identifier?: string }): { where: string; params: unknown[] } {
  const filter = new SqlFilter().ids(columns.id, query.ids).prefixes(columns.name, query.names);
  const identifierColumn = columns.identifier;
  if (query.identifiers !== undefined && identifierColumn !== undefined)
    filter.add((n) => `${identifierColumn} = any(${n}::text[])`, query.identifiers);
  filter.afterId(columns.id, query.after);
  return { where: filter.where, params: filter.params };
}

export function createFhirRepository(db: Queryable) {
  return {
    clinics(query: PageQuery): Promise<ClinicRow[]> {
      const { where, params } = pageFilter(query, { id: 'c.id', name: ['c.name'] });
      return db.query<ClinicRow>(
        `select ${CLINIC_COLUMNS} from clinic c join region r on r.id = c.region_id ${where} order by c.id limit ${Number(query.limit)}`,
        params,
      );
    },

    exams(query: PageQuery): Promise<ExamRow[]> {
      const { where, params } = pageFilter(query, { id: 'e.id', name: ['e.name'] });
      return db.query<ExamRow>(
        `select e.id::text as id, e.slug, e.exam_code, e.name, e.modality_id::text as modality_id, m.code as modality_code,
                m.name as modality_name, e.duration_minutes, e.preparation_notes, e.referral_required, e.enquiry_only
           from exam e join modality m on m.id = e.modality_id ${where} order by e.id limit ${Number(query.limit)}`,
        params,
      );
    },

    /** The provider's questionnaires by slug (answers sent with Appointment/$book name theirs by canonical URL). */
    questionnaires(slugs: readonly string[]): Promise<QuestionnaireRow[]> {
      return db.query<QuestionnaireRow>(`select id::text as id, slug, json from questionnaire where slug = any($1::text[])`, [slugs]);
    },

    referrers(query: PageQuery): Promise<ReferrerRow[]> {
      const { where, params } = pageFilter(query, { id: 'd.id', name: ['d.last_name', 'd.first_name'], identifier: 'd.provider_number' });
      return db.query<ReferrerRow>(
        `select d.id::text as id, d.provider_number, d.first_name, d.last_name, d.practice_name, d.city, d.postcode
           from referring_doctor d ${where} order by d.id limit ${Number(query.limit)}`,
        params,
      );
    },
  };
}

export type QuestionnaireRow = { id: string; slug: string; json: Record<string, unknown> };

export type FhirRepository = ReturnType<typeof createFhirRepository>;
