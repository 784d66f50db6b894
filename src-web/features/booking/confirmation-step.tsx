import { observer } from 'mobx-react-lite';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatStartTime } from './booking-calendar';
import { RequiredDocumentNotice } from '../../components/required-document-notice';
import { useStores } from '../../stores/use-stores';
import { Button } from '../../components/button';
import { LazyBookingCodeBox } from '../booking-code/public';

// Loaded with its own chunks when the confirmation shows (see details-step.tsx).
const LazySentDocuments = lazy(() => import('../attachments/public').then((module) => ({ default: module.LazySentDocuments })));

/** Step 3: what was booked (or requested), with the link to the appointment page. */
export const ConfirmationStep = observer(function ConfirmationStep() {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const result = booking.submission.result;
  if (!result) return null;
  const staff = booking.staffBooking;
  const clinic = booking.placeAndTime.selectedClinic?.clinic;
  const timeZone = clinic?.timeZone ?? 'UTC';
  const exams = booking.examChoice.selectedExams;

  if (result.kind === 'request') {
    return (
      <div className="pp-confirmation">
        <p role="status" className="pp-notice pp-notice-success">
          {staff ? t('booking.confirmation.requestStaff') : t('booking.confirmation.request')}
        </p>
        <ul>
          {result.response.results.map((entry) => (
            <li key={entry.examSlug}>
              {exams.find((exam) => exam.slug === entry.examSlug)?.name ?? entry.examSlug}:{' '}
              {entry.success ? t('booking.confirmation.requestCreated') : (entry.errorMessage ?? t('booking.confirmation.requestFailed'))}
            </li>
          ))}
        </ul>
        {booking.examChoice.questionnaireDocument && <RequiredDocumentNotice document={booking.examChoice.questionnaireDocument} />}
        <Suspense fallback={null}>
          <LazySentDocuments />
        </Suspense>
        <p>
          <Link to={`/booking-requests/${encodeURIComponent(result.response.bookingKey)}`}>{t('booking.confirmation.viewRequest')}</Link>
        </p>
        <Button variant="secondary" onClick={() => booking.startOver()}>
          {t('booking.confirmation.again')}
        </Button>
      </div>
    );
  }

  const { response } = result;
  const patient = booking.submission.patientForm?.values;
  return (
    <div className="pp-confirmation">
      <p role="status" className="pp-notice pp-notice-success">
        {response.status === 'PENDING'
          ? staff
            ? t('booking.confirmation.pendingStaff')
            : t('booking.confirmation.pending')
          : staff
            ? t('booking.confirmation.bookedStaff')
            : t('booking.confirmation.booked')}
      </p>
      <dl className="pp-details pp-confirmation-details">
        {patient && (
          <div>
            <dt>{t('booking.confirmation.patient')}</dt>
            <dd>
              {patient.title} {patient.firstName} {patient.lastName}
            </dd>
          </div>
        )}
        {clinic && (
          <div>
            <dt>{t('booking.confirmation.clinic')}</dt>
            <dd>
              {clinic.name}, {clinic.address.street}, {clinic.address.suburb} {clinic.address.state} {clinic.address.postcode}
              {clinic.phone ? ` · ${clinic.phone}` : ''}
            </dd>
          </div>
        )}
        {response.appointments.map((appointment) => (
          <div key={appointment.id}>
            <dt>{appointment.examName}</dt>
            <dd>
              {appointment.success
                ? formatStartTime(appointment.date, i18n.language, timeZone, false)
                : (appointment.errorMessage ?? t('booking.confirmation.requestFailed'))}
            </dd>
          </div>
        ))}
        {booking.examChoice.walkInExam && (
          <div>
            <dt>{t('booking.confirmation.walkIn')}</dt>
            <dd>
              {t('booking.walkIn.arrive', { name: booking.examChoice.walkInExam.name, count: booking.examChoice.walkInExam.minutesPrior })}
            </dd>
          </div>
        )}
      </dl>
      {booking.examChoice.questionnaireDocument && <RequiredDocumentNotice document={booking.examChoice.questionnaireDocument} />}
      <Suspense fallback={null}>
        <LazySentDocuments />
      </Suspense>
      <p>{staff ? t('booking.confirmation.emailStaff') : t('booking.confirmation.email')}</p>
      <Suspense fallback={null}>
        <LazyBookingCodeBox bookingKey={response.bookingKey} />
      </Suspense>
      <h3>{t('booking.confirmation.preparation')}</h3>
      <ul>
        {exams.map((exam) => (
          <li key={exam.slug}>
            <strong>{exam.name}:</strong> {exam.preparationNotes}
          </li>
        ))}
      </ul>
      <p>
        <Link to={`/appointments/${encodeURIComponent(response.bookingKey)}`}>
          {staff ? t('booking.confirmation.viewStaff') : t('booking.confirmation.view')}
        </Link>
      </p>
      <Button variant="secondary" onClick={() => booking.startOver()}>
        {t('booking.confirmation.again')}
      </Button>
    </div>
  );
});
