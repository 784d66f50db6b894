import { observer } from 'mobx-react-lite';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { RequiredDocumentNotice } from '../../components/required-document-notice';
import { useStores } from '../../stores/use-stores';
import { Button } from '../../components/button';
import { paths } from '../../paths';
import { usePortalHref } from '../../shell/embedded';

// Loaded with its own chunks when the confirmation shows (see details-step.tsx).
const LazySentDocuments = lazy(() => import('../attachments/public').then((module) => ({ default: module.LazySentDocuments })));

/** Step 3 of a booking request: what was requested, with the link to the request's page. */
export const ConfirmationStep = observer(function ConfirmationStep() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const href = usePortalHref();
  const result = booking.submission.result;
  if (!result) return null;
  const staff = booking.staffBooking;
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
          <Link to={href(paths.bookingRequest(result.response.bookingKey))}>{t('booking.confirmation.viewRequest')}</Link>
        </p>
        <Button variant="secondary" onClick={() => booking.startOver()}>
          {t('booking.confirmation.again')}
        </Button>
      </div>
    );
  }

  // A booked appointment has its own address (booking-page.tsx goes there at once): its
  // confirmation is the appointment route's /confirmed page, which a reload keeps.
  return <p role="status">{t('message.loading')}</p>;
});
