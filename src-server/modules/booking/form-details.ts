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
import { createFormDetailsRepository, type DetailsRow } from './form-details-repository';

/**
 * The booking form's details (docs/rules/booking.md#booking-form-details): the provider's lists and
 * questions, the check of a booking's answers against them (before anything is written: a bad answer
 * is a 400 and nothing is stored), and the row each booking keeps.
 */

/** "Prefer not to say" is always offered, whatever the provider configured. */
const NOT_STATED_LABEL = 'Prefer not to say';

/** What a booking stores: the answers with the configured labels of the moment. */
export interface CheckedFormDetails {
  insurance: { code: string; kind: InsuranceKind; label: string; memberNumber: string | null; fundName: string | null } | null;
  ethnicity: { code: string; label: string } | null;
  referringPractice: { name: string; suburb: string | null } | null;
}

/** The provider's lists and questions, as GET /api/booking/form-details answers them. */
export async function loadFormDetails(q: Queryable): Promise<BookingFormDetails> {
  const repository = createFormDetailsRepository(q);
  const settings = await repository.settings();
  const types = await repository.insuranceTypes();
  const options = await repository.ethnicityOptions();
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
  await createFormDetailsRepository(tx).insert(booking, details);
}

/** A booking's answers as staff and its patient read them, or null when none were given. */
export async function formDetailsOf(q: Queryable, bookingKey: string): Promise<BookingFormDetailsView | null> {
  const row = await createFormDetailsRepository(q).forBooking(bookingKey);
  return row === null ? null : viewOf(row);
}

/** The answers of several bookings in one query (a staff list), by booking key; keys without answers are absent. */
export async function formDetailsOfMany(q: Queryable, bookingKeys: readonly string[]): Promise<Map<string, BookingFormDetailsView>> {
  if (bookingKeys.length === 0) return new Map();
  const rows = await createFormDetailsRepository(q).forBookings(bookingKeys);
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
