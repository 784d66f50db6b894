import { useTranslation } from 'react-i18next';
import type { BookingStep } from './booking-store';
import './booking-actions.css';

/** The four steps as an ordered list; the current one is marked for assistive technology. */
export function BookingStepper({ step }: { step: BookingStep }) {
  const { t } = useTranslation();
  const labels = [t('booking.steps.exams'), t('booking.steps.location'), t('booking.steps.details'), t('booking.steps.confirmation')];
  return (
    <nav aria-label={t('booking.steps.label')}>
      <ol className="pp-stepper">
        {labels.map((label, index) => (
          <li
            key={label}
            className={index === step ? 'pp-step pp-step-current' : index < step ? 'pp-step pp-step-done' : 'pp-step'}
            aria-current={index === step ? 'step' : undefined}
          >
            <span className="pp-step-number" aria-hidden="true">
              {index + 1}
            </span>
            <span className="pp-step-label">{label}</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}
