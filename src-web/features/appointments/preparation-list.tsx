import { useTranslation } from 'react-i18next';
import type { AppointmentItem } from '@contract/api/appointments';

/**
 * The preparation of a booking's exams, once per page (docs/rules/booking.md#preparation): the
 * server already chose the parts that fit what was done online (the screening, the referral).
 */
export function PreparationList({ appointments, headingId }: { appointments: readonly AppointmentItem[]; headingId: string }) {
  const { t } = useTranslation();
  const withNotes = appointments.filter((appointment) => appointment.preparationNotes.trim() !== '');
  if (withNotes.length === 0) return null;
  return (
    <section aria-labelledby={headingId} data-testid="preparation">
      <h2 id={headingId}>{t('appointment.summary.preparation')}</h2>
      <ul className="pp-appt-preparation">
        {withNotes.map((appointment) => (
          <li key={appointment.slug}>
            {withNotes.length > 1 && <strong>{appointment.examName}: </strong>}
            {appointment.preparationNotes}
          </li>
        ))}
      </ul>
    </section>
  );
}
