import {
  ETHNICITY_NOT_STATED,
  FORM_DETAILS_MESSAGES,
  type BookingFormAnswers,
  type BookingFormDetails,
  type BookingFormDetailsView,
  type InsuranceKind,
} from '@contract/api/booking-form-details';
import type { Queryable } from '../../db/connection';
import { validationError } from '../../platform/errors';

/**
 * The booking form's details (docs/rules/booking.md#booking-form-details): the provider's lists and
 * questions, the check of a booking's answers against them (before anything is written: a bad answer
 * is a 400 and nothing is stored), and the row each booking keeps.
 */

/** "Prefer not to say" is always offered, whatever the provider configured. */
const NOT_STATED_LABEL = 'Prefer not to say';

type SettingsRow = {
  insurance_asked: boolean;
  insurance_required: boolean;
  ethnicity_asked: boolean;
  ethnicity_required: boolean;
  referring_practice_asked: boolean;
  referring_practice_required: boolean;
};

type DetailsRow = {
  insurance_code: string | null;
  insurance_kind: InsuranceKind | null;
  insurance_label: string | null;
  insurance_member_number: string | null;
  insurance_fund_name: string | null;
  ethnicity_code: string | null;
  ethnicity_label: string | null;
  referring_practice_name: string | null;
  referring_practice_suburb: string | null;
};

/** What a booking stores: the answers with the configured labels of the moment. */
export interface CheckedFormDetails {
  insurance: { code: string; kind: InsuranceKind; label: string; memberNumber: string | null; fundName: string | null } | null;
  ethnicity: { code: string; label: string } | null;
  referringPractice: { name: string; suburb: string | null } | null;
}

/** The provider's lists and questions, as GET /api/booking/form-details answers them. */
export async function loadFormDetails(q: Queryable): Promise<BookingFormDetails> {
  const [settings] = await q.query<SettingsRow>('select * from booking_form_settings where id = 1');
  const types = await q.query<{ code: string; kind: InsuranceKind; label: string }>(
    'select code, kind, label from insurance_type where active order by position, code',
  );
  const options = await q.query<{ code: string; label: string }>(
    'select code, label from ethnicity_option where active order by position, code',
  );
  if (!options.some((option) => option.code === ETHNICITY_NOT_STATED))
    options.push({ code: ETHNICITY_NOT_STATED, label: NOT_STATED_LABEL });
  const s = settings ?? {
    insurance_asked: false,
    insurance_required: false,
    ethnicity_asked: false,
    ethnicity_required: false,
    referring_practice_asked: false,
    referring_practice_required: false,
  };
  // A question without anything to choose cannot be asked.
  const insuranceAsked = s.insurance_asked && types.length > 0;
  return {
    insurance: { asked: insuranceAsked, required: insuranceAsked && s.insurance_required, types },
    ethnicity: { asked: s.ethnicity_asked, required: s.ethnicity_asked && s.ethnicity_required, options },
    referringPractice: { asked: s.referring_practice_asked, required: s.referring_practice_asked && s.referring_practice_required },
  };
}

/**
 * Checks a booking's answers against the provider's configuration; throws a 400 naming the field.
 * `hasMedicareNumber`: Medicare pays only with the Medicare number of the patient's details.
 */
export async function checkFormDetails(
  q: Queryable,
  answers: BookingFormAnswers | undefined,
  hasMedicareNumber: boolean,
): Promise<CheckedFormDetails | null> {
  const config = await loadFormDetails(q);
  const given = answers ?? {};
  const field = (name: string) => `formDetails/${name}`;

  let insurance: CheckedFormDetails['insurance'] = null;
  if (given.insurance !== undefined) {
    if (!config.insurance.asked) throw validationError(field('insurance'), FORM_DETAILS_MESSAGES.notAsked);
    const type = config.insurance.types.find((candidate) => candidate.code === given.insurance?.typeCode);
    if (type === undefined) throw validationError(field('insurance/typeCode'), FORM_DETAILS_MESSAGES.insuranceTypeUnknown);
    const { memberNumber, fundName } = given.insurance;
    const needsMember = type.kind === 'DVA' || type.kind === 'PRIVATE';
    if (needsMember && memberNumber === undefined) {
      throw validationError(field('insurance/memberNumber'), FORM_DETAILS_MESSAGES.memberNumberRequired);
    }
    if (!needsMember && memberNumber !== undefined) throw validationError(field('insurance/memberNumber'), FORM_DETAILS_MESSAGES.notAsked);
    if (type.kind === 'PRIVATE' && fundName === undefined)
      throw validationError(field('insurance/fundName'), FORM_DETAILS_MESSAGES.fundNameRequired);
    if (type.kind !== 'PRIVATE' && fundName !== undefined)
      throw validationError(field('insurance/fundName'), FORM_DETAILS_MESSAGES.notAsked);
    if (type.kind === 'MEDICARE' && !hasMedicareNumber)
      throw validationError('patient/medicareNumber', FORM_DETAILS_MESSAGES.medicareRequired);
    insurance = { code: type.code, kind: type.kind, label: type.label, memberNumber: memberNumber ?? null, fundName: fundName ?? null };
  } else if (config.insurance.required) {
    throw validationError(field('insurance'), FORM_DETAILS_MESSAGES.insuranceType);
  }

  let ethnicity: CheckedFormDetails['ethnicity'] = null;
  if (given.ethnicityCode !== undefined) {
    if (!config.ethnicity.asked) throw validationError(field('ethnicityCode'), FORM_DETAILS_MESSAGES.notAsked);
    const option = config.ethnicity.options.find((candidate) => candidate.code === given.ethnicityCode);
    if (option === undefined) throw validationError(field('ethnicityCode'), FORM_DETAILS_MESSAGES.ethnicityUnknown);
    ethnicity = { code: option.code, label: option.label };
  } else if (config.ethnicity.required) {
    throw validationError(field('ethnicityCode'), FORM_DETAILS_MESSAGES.ethnicity);
  }

  let referringPractice: CheckedFormDetails['referringPractice'] = null;
  if (given.referringPractice !== undefined) {
    if (!config.referringPractice.asked) throw validationError(field('referringPractice'), FORM_DETAILS_MESSAGES.notAsked);
    const suburb = given.referringPractice.suburb ?? '';
    referringPractice = { name: given.referringPractice.name, suburb: suburb === '' ? null : suburb };
  } else if (config.referringPractice.required) {
    throw validationError(field('referringPractice/name'), FORM_DETAILS_MESSAGES.practiceRequired);
  }

  return insurance === null && ethnicity === null && referringPractice === null ? null : { insurance, ethnicity, referringPractice };
}

/** Writes a booking's answers in the booking's transaction (nothing when none were given). */
export async function storeFormDetails(
  tx: Queryable,
  booking: { bookingKey: string; owner: 'APPOINTMENT' | 'BOOKING_REQUEST'; now: Date },
  details: CheckedFormDetails | null,
): Promise<void> {
  if (details === null) return;
  const { insurance, ethnicity, referringPractice } = details;
  await tx.query(
    `insert into booking_form_details (booking_key, owner, insurance_code, insurance_kind, insurance_label, insurance_member_number,
       insurance_fund_name, ethnicity_code, ethnicity_label, referring_practice_name, referring_practice_suburb, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      booking.bookingKey,
      booking.owner,
      insurance?.code ?? null,
      insurance?.kind ?? null,
      insurance?.label ?? null,
      insurance?.memberNumber ?? null,
      insurance?.fundName ?? null,
      ethnicity?.code ?? null,
      ethnicity?.label ?? null,
      referringPractice?.name ?? null,
      referringPractice?.suburb ?? null,
      booking.now.toISOString(),
    ],
  );
}

/** A booking's answers as staff and its patient read them, or null when none were given. */
export async function formDetailsOf(q: Queryable, bookingKey: string): Promise<BookingFormDetailsView | null> {
  const [row] = await q.query<DetailsRow>('select * from booking_form_details where booking_key = $1', [bookingKey]);
  return row === undefined ? null : viewOf(row);
}

/** The answers of several bookings in one query (a staff list), by booking key; keys without answers are absent. */
export async function formDetailsOfMany(q: Queryable, bookingKeys: readonly string[]): Promise<Map<string, BookingFormDetailsView>> {
  if (bookingKeys.length === 0) return new Map();
  // The keys go as JSON: the two drivers serialise JS arrays differently.
  const rows = await q.query<DetailsRow & { booking_key: string }>(
    'select * from booking_form_details where booking_key in (select jsonb_array_elements_text($1::jsonb))',
    [JSON.stringify(bookingKeys)],
  );
  return new Map(rows.map((row) => [row.booking_key, viewOf(row)]));
}

function viewOf(row: DetailsRow): BookingFormDetailsView {
  return {
    insurance:
      row.insurance_code === null || row.insurance_kind === null || row.insurance_label === null
        ? null
        : {
            code: row.insurance_code,
            kind: row.insurance_kind,
            label: row.insurance_label,
            memberNumber: row.insurance_member_number,
            fundName: row.insurance_fund_name,
          },
    ethnicity:
      row.ethnicity_code === null || row.ethnicity_label === null ? null : { code: row.ethnicity_code, label: row.ethnicity_label },
    referringPractice:
      row.referring_practice_name === null ? null : { name: row.referring_practice_name, suburb: row.referring_practice_suburb },
  };
}
