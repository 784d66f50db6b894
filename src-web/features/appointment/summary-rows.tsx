import { useTranslation } from 'react-i18next';
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
