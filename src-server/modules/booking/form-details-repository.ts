import type { InsuranceKind } from '@contract/api/booking-form-details';
import type { Queryable } from '../../db/connection';
import type { CheckedFormDetails } from './form-details';

/** The booking form's configuration and each booking's answers (form-details.ts). */

export type FormDetailsSettingsRow = {
  insurance_asked: boolean;
  insurance_required: boolean;
  ethnicity_asked: boolean;
  ethnicity_required: boolean;
  referring_practice_asked: boolean;
  referring_practice_required: boolean;
};

export type DetailsRow = {
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

export function createFormDetailsRepository(db: Queryable) {
  return {
    async settings(tx: Queryable = db): Promise<FormDetailsSettingsRow | null> {
      const [row] = await tx.query<FormDetailsSettingsRow>('select * from booking_form_settings where id = 1');
      return row ?? null;
    },

    async insuranceTypes(tx: Queryable = db): Promise<Array<{ code: string; kind: InsuranceKind; label: string }>> {
      return tx.query('select code, kind, label from insurance_type where active order by position, code');
    },

    async ethnicityOptions(tx: Queryable = db): Promise<Array<{ code: string; label: string }>> {
      return tx.query('select code, label from ethnicity_option where active order by position, code');
    },

    /** A booking's answers with the configured labels of the moment (in the booking's transaction). */
    async insert(
      booking: { bookingKey: string; owner: 'APPOINTMENT' | 'BOOKING_REQUEST'; now: Date },
      details: CheckedFormDetails,
      tx: Queryable = db,
    ): Promise<void> {
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
    },

    async forBooking(bookingKey: string, tx: Queryable = db): Promise<DetailsRow | null> {
      const [row] = await tx.query<DetailsRow>('select * from booking_form_details where booking_key = $1', [bookingKey]);
      return row ?? null;
    },

    async forBookings(bookingKeys: readonly string[], tx: Queryable = db): Promise<Array<DetailsRow & { booking_key: string }>> {
      // The keys go as JSON: the two drivers serialise JS arrays differently.
      return tx.query<DetailsRow & { booking_key: string }>(
        'select * from booking_form_details where booking_key in (select jsonb_array_elements_text($1::jsonb))',
        [JSON.stringify(bookingKeys)],
      );
    },
  };
}
