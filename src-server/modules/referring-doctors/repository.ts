import type { Queryable } from '../../db/connection';
import { likeLiteral } from '../../db/sql';

/** SQL of the referring-doctor directory (docs/server.md#module-shape). */

export type ReferringDoctorRow = {
  id: string;
  first_name: string;
  last_name: string;
  provider_number: string;
  practice_name: string;
  city: string;
  postcode: string;
};

/** What one search looks for; the service derives it from the patient's text (service.ts). */
export interface DoctorSearchTerms {
  /** The whole normalised text. */
  text: string;
  /** Its words, each once, in order. */
  words: readonly string[];
  /** The words long enough for the trigram index (3 or more characters); each is looked for inside search_text. */
  containedWords: readonly string[];
  limit: number;
}

const COLUMNS = 'id::text as id, first_name, last_name, provider_number, practice_name, city, postcode';

/**
 * How many matches, best by the cheap keys, are ranked by similarity. Computing trigram
 * similarity is what a search pays per row, so a broad word ("medical", thousands of doctors)
 * ranks these only; a name search matches far fewer.
 */
export const SIMILARITY_CANDIDATES = 200;

/**
 * The search as one statement (docs/rules/check-in.md#referring-doctors). A doctor matches when
 * any contained word is part of its search_text: each LIKE '%word%' is answered by the trigram
 * index. With no word that long ("j s"), the name's words must start with the typed ones, in order
 * (a scan, but a rare one). Ranked by how many words matched, then a last name starting with a
 * word, then another field starting with the text ("first last", the provider number, the city,
 * or the postcode being it), then, among the best SIMILARITY_CANDIDATES by those keys, trigram
 * similarity of the text to the name; ties by name.
 */
export function doctorSearchQuery(terms: DoctorSearchTerms): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const parameter = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const text = parameter(terms.text);
  const textPrefix = parameter(`${likeLiteral(terms.text)}%`);
  const contains = terms.containedWords.map((word) => `search_text like ${parameter(`%${likeLiteral(word)}%`)}`);
  const matches =
    contains.length > 0
      ? contains.join(' or ')
      : `lower(first_name || ' ' || last_name) like ${parameter(terms.words.map((word) => `${likeLiteral(word)}%`).join(' '))}`;
  const lastNameStarts = terms.words.map((word) => `lower(last_name) like ${parameter(`${likeLiteral(word)}%`)}`);
  const otherStarts = [
    ...(terms.words.length > 1 ? [`lower(first_name || ' ' || last_name) like ${textPrefix}`] : []),
    `lower(provider_number) like ${textPrefix}`,
    `lower(city) like ${textPrefix}`,
    `postcode = ${text}`,
  ];
  const sql = `
    with candidates as (
      select ${COLUMNS},
             ${contains.length > 1 ? contains.map((match) => `(${match})::int`).join(' + ') : contains.length} as words_matched,
             (${lastNameStarts.length > 0 ? lastNameStarts.join(' or ') : 'false'}) as last_name_starts,
             (${otherStarts.join(' or ')}) as other_starts
        from referring_doctor
       where ${matches}
       order by words_matched desc, last_name_starts desc, other_starts desc, last_name, first_name, provider_number
       limit ${parameter(SIMILARITY_CANDIDATES)}
    )
    select id, first_name, last_name, provider_number, practice_name, city, postcode
      from candidates
     order by words_matched desc, last_name_starts desc, other_starts desc,
              word_similarity(${text}, lower(first_name || ' ' || last_name)) desc,
              last_name, first_name, provider_number
     limit ${parameter(terms.limit)}`;
  return { sql, params };
}

export function createReferringDoctorsRepository(db: Queryable) {
  return {
    search(terms: DoctorSearchTerms, tx: Queryable = db): Promise<ReferringDoctorRow[]> {
      if (terms.words.length === 0) return Promise.resolve([]);
      const { sql, params } = doctorSearchQuery(terms);
      return tx.query<ReferringDoctorRow>(sql, params);
    },

    /**
     * The practices (name and suburb, never a doctor) whose name holds every typed word of 3 or more
     * characters (each answered by the trigram index on search_text first), those starting with the
     * text first, then the practices with most doctors, then by name; at most `limit`.
     */
    practices(terms: DoctorSearchTerms, tx: Queryable = db): Promise<{ name: string; suburb: string }[]> {
      if (terms.containedWords.length === 0) return Promise.resolve([]);
      const params: unknown[] = [];
      const parameter = (value: unknown): string => {
        params.push(value);
        return `$${params.length}`;
      };
      const words = terms.containedWords.map((word) => {
        const pattern = parameter(`%${likeLiteral(word)}%`);
        return `search_text like ${pattern} and lower(practice_name) like ${pattern}`;
      });
      const starts = parameter(`${likeLiteral(terms.text)}%`);
      return tx.query<{ name: string; suburb: string }>(
        `select practice_name as name, city as suburb
           from referring_doctor
          where ${words.join(' and ')}
          group by practice_name, city
          order by bool_or(lower(practice_name) like ${starts}) desc, count(*) desc, practice_name, city
          limit ${parameter(terms.limit)}`,
        params,
      );
    },

    /** Whether an appointment booking has this key (staff may search under any booking). */
    async appointmentBookingExists(bookingKey: string, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query<{ found: boolean }>('select exists (select 1 from appointment where booking_key = $1) as found', [
        bookingKey,
      ]);
      return rows[0]?.found === true;
    },
  };
}

export type ReferringDoctorsRepository = ReturnType<typeof createReferringDoctorsRepository>;
