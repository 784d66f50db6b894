import type { Queryable } from '../connection';
import type { DemoProvider } from './demo-provider';

/**
 * The demo provider's booking form details (booking.json `formDetails`): which questions the form
 * asks, the insurance types and the ethnicity answers (docs/rules/booking.md#booking-form-details).
 */
export async function insertBookingFormDetails(tx: Queryable, data: DemoProvider): Promise<void> {
  const details = data.booking.formDetails;
  if (details === undefined) return;
  await tx.query(
    `update booking_form_settings
        set insurance_asked = $1, insurance_required = $2, ethnicity_asked = $3, ethnicity_required = $4,
            referring_practice_asked = $5, referring_practice_required = $6
      where id = 1`,
    [
      details.insurance.asked,
      details.insurance.required,
      details.ethnicity.asked,
      details.ethnicity.required,
      details.referringPractice.asked,
      details.referringPractice.required,
    ],
  );
  for (const [position, type] of details.insuranceTypes.entries()) {
    await tx.query('insert into insurance_type (code, kind, label, position) values ($1, $2, $3, $4)', [
      type.code,
      type.kind,
      type.label,
      position,
    ]);
  }
  for (const [position, option] of details.ethnicities.entries()) {
    await tx.query('insert into ethnicity_option (code, label, position) values ($1, $2, $3)', [option.code, option.label, position]);
  }
}
