import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { AppointmentSummary } from '@contract/api/appointments';
import { formatStartTime } from '../booking/public';

/**
 * One row per exam of the booking: its name, its start in the clinic's time zone, its modality.
 * `testId` names the time element for the page's tests (appointment-time, confirmed-time).
 */
export function AppointmentTimeRows({ summary, testId }: { summary: AppointmentSummary; testId: string }) {
  const { i18n } = useTranslation();
  return summary.appointments.map((appointment) => (
    <div key={appointment.slug}>
      <dt>{appointment.examName}</dt>
      <dd>
        <time dateTime={appointment.startsAt} data-testid={testId}>
          {formatStartTime(appointment.startsAt, i18n.language, summary.clinic.timeZone, true)}
        </time>
        <span className="pp-muted"> · {appointment.modalityName}</span>
      </dd>
    </div>
  ));
}

/** The walk-in row of an appointment's summary list, when the booking has a walk-in exam. */
export function WalkInRow({ walkIn }: { walkIn: AppointmentSummary['walkInExam'] }) {
  const { t } = useTranslation();
  if (!walkIn) return null;
  return (
    <div>
      <dt>{t('appointment.summary.walkIn')}</dt>
      <dd>{t('appointment.summary.walkInText', { name: walkIn.name, count: walkIn.minutesPrior })}</dd>
    </div>
  );
}

/** The clinic's name, address and phone (a tel: link), as the appointment page and the confirmation show them. */
export function ClinicContact({ clinic }: { clinic: AppointmentSummary['clinic'] }) {
  return (
    <>
      <strong>{clinic.name}</strong>
      <br />
      {clinic.address}
      {clinic.phone && (
        <>
          <br />
          <a className="pp-target-link" href={`tel:${clinic.phone.replace(/[^\d+]/g, '')}`}>
            {clinic.phone}
          </a>
        </>
      )}
    </>
  );
}

/**
 * The documents sent with the booking, by name only (never their content), as the confirmation
 * lists them; nothing when none was sent. The appointment page lists them in its documents section.
 */
export function SentDocumentsRow({ documents }: { documents: AppointmentSummary['documents'] }) {
  const { t } = useTranslation();
  if (documents.length === 0) return null;
  return (
    <div data-testid="sent-documents">
      <dt>{t('appointment.summary.documents')}</dt>
      <dd>
        <ul className="pp-confirmed-documents">
          {documents.map((document, index) => (
            <li key={index}>
              {document.title ?? t('appointment.summary.documentOther')}: {document.fileName}
            </li>
          ))}
        </ul>
      </dd>
    </div>
  );
}

/** The ABS answers are ours and translated; a provider's own answers show as configured. */
function ethnicityText(t: TFunction, code: string, label: string): string {
  switch (code) {
    case 'NO':
      return t('appointment.summary.ethnicityOptions.NO');
    case 'ABORIGINAL':
      return t('appointment.summary.ethnicityOptions.ABORIGINAL');
    case 'TORRES_STRAIT_ISLANDER':
      return t('appointment.summary.ethnicityOptions.TORRES_STRAIT_ISLANDER');
    case 'BOTH':
      return t('appointment.summary.ethnicityOptions.BOTH');
    case 'NOT_STATED':
      return t('appointment.summary.ethnicityOptions.NOT_STATED');
    default:
      return label;
  }
}

/**
 * The booking form's details (docs/rules/booking.md#booking-form-details): how the exam is paid
 * for, the ethnicity answer and the referring practice, when the booking has them (the summary
 * carries them for staff and the booking's signed-in patient only).
 */
export function FormDetailsRows({ details }: { details: AppointmentSummary['formDetails'] }) {
  const { t } = useTranslation();
  if (!details) return null;
  const { insurance, ethnicity, referringPractice } = details;
  return (
    <>
      {insurance && (
        <div data-testid="summary-insurance">
          <dt>{t('appointment.summary.insurance')}</dt>
          <dd>
            {insurance.label}
            {insurance.fundName && <span className="pp-muted"> · {t('appointment.summary.fundName', { name: insurance.fundName })}</span>}
            {insurance.memberNumber && (
              <span className="pp-muted"> · {t('appointment.summary.memberNumber', { number: insurance.memberNumber })}</span>
            )}
          </dd>
        </div>
      )}
      {ethnicity && (
        <div data-testid="summary-ethnicity">
          <dt>{t('appointment.summary.ethnicity')}</dt>
          <dd>{ethnicityText(t, ethnicity.code, ethnicity.label)}</dd>
        </div>
      )}
      {referringPractice && (
        <div data-testid="summary-referring-practice">
          <dt>{t('appointment.summary.referringPractice')}</dt>
          <dd>
            {referringPractice.name}
            {referringPractice.suburb && <span className="pp-muted"> · {referringPractice.suburb}</span>}
          </dd>
        </div>
      )}
    </>
  );
}
