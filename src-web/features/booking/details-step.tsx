import { observer } from 'mobx-react-lite';
import { runInAction } from 'mobx';
import { lazy, Suspense, useCallback, useId, useRef, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatInstant } from './booking-calendar';
import type { BookingFailure } from './booking-errors';
import { TITLES, type FieldProblem, type PatientField, type PatientForm } from './booking-patient-form';
import { useStores } from '../../stores/use-stores';
import { ModalDialog } from '../../components/modal-dialog';
import { RequiredDocumentNotice } from '../../components/required-document-notice';
import { Button } from '../../components/button';
import { CallbackLink } from './callback-link';
import { PATIENT_AUTOCOMPLETE } from '../../components/patient-autocomplete';
import { NoteField } from '../../components/note-field';

// The documents area loads when this step shows (its own chunks), so the flow's preload lists stay as they were.
const LazyBookingDocuments = lazy(() => import('../attachments/public').then((module) => ({ default: module.LazyBookingDocuments })));
// Insurance, ethnicity and the referring practice: their own chunk, with the provider's lists.
const LazyFormDetails = lazy(() =>
  import('./booking-form-details-fields').then((module) => ({ default: module.BookingFormDetailsFields })),
);
// Only staff booking for a patient look patients up: patients never download it.
const LazyPatientLookup = lazy(() => import('./patient-lookup').then((module) => ({ default: module.PatientLookup })));

/** The field's label; every key is literal so the catalogue check sees it. */
function fieldLabel(t: TFunction, field: PatientField): string {
  switch (field) {
    case 'title':
      return t('booking.details.fields.title');
    case 'firstName':
      return t('booking.details.fields.firstName');
    case 'lastName':
      return t('booking.details.fields.lastName');
    case 'dateOfBirth':
      return t('booking.details.fields.dateOfBirth');
    case 'email':
      return t('booking.details.fields.email');
    case 'contactNumber':
      return t('booking.details.fields.contactNumber');
    case 'postalCode':
      return t('booking.details.fields.postalCode');
    case 'medicareNumber':
      return t('booking.details.fields.medicareNumber');
    case 'validationCode':
      return t('booking.details.fields.validationCode');
  }
}

/** The patient-details messages (docs/rules/booking.md#patient-details), by field and problem. */
export function problemText(t: TFunction, field: PatientField, problem: FieldProblem): string {
  if (problem === 'future') return t('booking.details.problems.dateOfBirthFuture');
  if (problem === 'required') {
    if (field === 'title') return t('booking.details.problems.titleRequired');
    if (field === 'medicareNumber') return t('booking.details.problems.medicareRequired');
    return t('booking.details.problems.required', { field: fieldLabel(t, field) });
  }
  switch (field) {
    case 'title':
      return t('booking.details.problems.titleRequired');
    case 'firstName':
      return t('booking.details.problems.firstName');
    case 'lastName':
      return t('booking.details.problems.lastName');
    case 'dateOfBirth':
      return t('booking.details.problems.dateOfBirth');
    case 'email':
      return t('booking.details.problems.email');
    case 'contactNumber':
      return t('booking.details.problems.contactNumber');
    case 'postalCode':
      return t('booking.details.problems.postalCode');
    case 'medicareNumber':
      return t('booking.details.problems.medicareNumber');
    case 'validationCode':
      return t('booking.details.problems.validationCode');
  }
}

/** The error modal's text: 500 to 504 each their own, 505 and above (or no answer) the general one. */
export function failureText(t: TFunction, failure: BookingFailure): string {
  if (failure.kind !== 'server') return t('booking.errors.general');
  switch (failure.status) {
    case 500:
      return t('booking.errors.500');
    case 501:
      return t('booking.errors.501');
    case 502:
      return t('booking.errors.502');
    case 503:
      return t('booking.errors.503');
    case 504:
      return t('booking.errors.504');
  }
}

/**
 * The booking limits' refusal (docs/rules/booking.md#booking-limits): when to try again, in the
 * clinic's zone (the browser's when no clinic is chosen), and the clinic's phone when known.
 */
export function tooManyText(
  t: TFunction,
  failure: { retryAt: string | null },
  clinic: { phone: string; timeZone: string } | undefined,
  locale: string,
): string {
  if (failure.retryAt === null) return t('booking.errors.tooManyBookingsLater');
  const time = formatInstant(failure.retryAt, locale, clinic?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, {
    weekday: 'long',
    hour: 'numeric',
    minute: '2-digit',
  });
  const phone = clinic?.phone.trim() ?? '';
  return phone === '' ? t('booking.errors.tooManyBookingsNoPhone', { time }) : t('booking.errors.tooManyBookings', { time, phone });
}

const Field = observer(function Field({ form, field }: { form: PatientForm; field: PatientField }) {
  const { t } = useTranslation();
  const { booking } = useStores();
  const id = `booking-${field}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const problem = form.visibleProblem(field);
  const hint =
    field === 'contactNumber'
      ? t('booking.details.hints.contactNumber')
      : field === 'medicareNumber'
        ? t('booking.details.hints.medicareNumber')
        : field === 'postalCode'
          ? t('booking.details.hints.postalCode')
          : field === 'validationCode'
            ? t('booking.details.hints.validationCode')
            : null;
  const describedBy = [hint ? hintId : null, problem ? errorId : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field,
    value: form.values[field],
    'aria-invalid': problem !== null,
    'aria-describedby': describedBy,
    'aria-required': field !== 'medicareNumber' || form.medicareAsked,
    autoComplete: PATIENT_AUTOCOMPLETE[field],
    onBlur: () => form.touch(field),
  };
  return (
    <div className={problem ? 'pp-field pp-field-invalid' : 'pp-field'}>
      <label htmlFor={id}>{fieldLabel(t, field)}</label>
      {hint && (
        <p id={hintId} className="pp-field-hint">
          {hint}
        </p>
      )}
      {field === 'title' ? (
        <select {...common} className="pp-input pp-input-short" onChange={(event) => form.setValue(field, event.target.value)}>
          <option value="">{t('booking.details.chooseTitle')}</option>
          {TITLES.map((title) => (
            <option key={title} value={title}>
              {title}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          className={field === 'postalCode' || field === 'dateOfBirth' ? 'pp-input pp-input-short' : 'pp-input'}
          type={field === 'dateOfBirth' ? 'date' : field === 'email' ? 'email' : field === 'contactNumber' ? 'tel' : 'text'}
          inputMode={field === 'contactNumber' || field === 'postalCode' || field === 'medicareNumber' ? 'numeric' : undefined}
          max={field === 'dateOfBirth' ? booking.today : undefined}
          onChange={(event) => form.setValue(field, event.target.value)}
        />
      )}
      {problem && (
        <p id={errorId} className="pp-field-error">
          {field === 'medicareNumber' && problem === 'required' && !form.medicareRequired
            ? t('booking.formDetails.problems.medicareForInsurance')
            : problemText(t, field, problem)}
        </p>
      )}
    </div>
  );
});

/** What is being booked, where and when: the step's summary above the form. */
const BookingSummary = observer(function BookingSummary() {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const clinic = booking.placeAndTime.selectedClinic?.clinic;
  return (
    <section className="pp-summary" aria-label={t('booking.details.summary')}>
      <ul>
        {booking.examChoice.selectedExams.map((exam) => (
          <li key={exam.slug}>{exam.name}</li>
        ))}
      </ul>
      {clinic && <p>{clinic.name}</p>}
      {clinic && booking.placeAndTime.selectedStartsAt && (
        <p>
          {formatInstant(booking.placeAndTime.selectedStartsAt, i18n.language, clinic.timeZone, {
            weekday: 'long',
            day: 'numeric',
            month: 'long',
            hour: 'numeric',
            minute: '2-digit',
          })}
        </p>
      )}
      {booking.examChoice.walkInExam && <p>{t('booking.walkIn.recorded', { name: booking.examChoice.walkInExam.name })}</p>}
    </section>
  );
});

/** Why the booking was not made, where it can be put right on this step. */
const SubmissionFailure = observer(function SubmissionFailure() {
  const { booking } = useStores();
  const { t, i18n } = useTranslation();
  const failure = booking.submission.failure;
  const clinic = booking.placeAndTime.selectedClinic?.clinic;
  return (
    <>
      {failure?.kind === 'invalid' && (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>{t('booking.errors.invalid')}</p>
          {failure.message && <p>{failure.message}</p>}
        </div>
      )}
      {failure?.kind === 'screening_required' && (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>{t('booking.errors.screeningRequired')}</p>
        </div>
      )}
      {failure?.kind === 'too_many' && (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>{tooManyText(t, failure, clinic, i18n.language)}</p>
          <CallbackLink />
        </div>
      )}
      {failure?.kind === 'ask_reception' && (
        <div role="alert" className="pp-notice pp-notice-error">
          <p>{t('booking.errors.askReception')}</p>
        </div>
      )}
    </>
  );
});

/** Step 2: the patient's details, checked next to each field before anything is sent. */
export const DetailsStep = observer(function DetailsStep() {
  const { booking } = useStores();
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const notesId = useId();
  const formId = useId();
  // Documents added here are kept under the booking's temporary key, which the booking then carries.
  const recordKey = useCallback((key: string) => runInAction(() => (booking.examChoice.questionnaireKey = key)), [booking]);
  const form = booking.submission.patientForm;
  if (!form) return null;
  const examSlugs = booking.examChoice.selectedExams.map((exam) => exam.slug);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await booking.submission.submit();
    if (!done && !form.isValid) {
      const first = form.firstInvalidField;
      if (first) formRef.current?.querySelector<HTMLElement>(`#booking-${first}`)?.focus();
    }
  };

  return (
    <div className="pp-details-step">
      <BookingSummary />
      {booking.staffBooking && (
        <Suspense fallback={null}>
          <LazyPatientLookup form={form} />
        </Suspense>
      )}
      <p>{booking.staffBooking ? t('booking.details.introStaff') : t('booking.details.intro')}</p>
      {/* The fields first, right after the step's heading; the documents (optional, or asked for by a
          questionnaire) follow, then the failures and the actions, which submit this form by its id. */}
      <form id={formId} ref={formRef} noValidate onSubmit={(event) => void onSubmit(event)} className="pp-form">
        {/* The Medicare number asked only because Medicare pays shows under that choice (LazyFormDetails). */}
        {form.fields
          .filter((field) => field !== 'medicareNumber' || form.medicareRequired)
          .map((field) => (
            <Field key={field} form={form} field={field} />
          ))}
        <Suspense fallback={null}>
          <LazyFormDetails form={form} medicareField={form.medicareRequired ? null : <Field form={form} field="medicareNumber" />} />
        </Suspense>
        {booking.examChoice.isBookingRequest && (
          <NoteField
            id={notesId}
            label={t('booking.details.fields.notes')}
            rows={4}
            maxLength={2000}
            value={form.patientNotes}
            onChange={(notes) => form.setNotes(notes)}
          />
        )}
      </form>
      {booking.examChoice.questionnaireDocument && <RequiredDocumentNotice document={booking.examChoice.questionnaireDocument} />}
      <Suspense fallback={null}>
        <LazyBookingDocuments bookingKey={booking.examChoice.questionnaireKey} examSlugs={examSlugs} onKey={recordKey} />
      </Suspense>
      <SubmissionFailure />
      <div className="pp-actions">
        <Button variant="secondary" onClick={() => booking.goBack()}>
          {t('booking.actions.back')}
        </Button>
        <Button type="submit" form={formId} disabled={booking.submission.submitting}>
          {booking.submission.submitting
            ? t('booking.details.submitting')
            : booking.examChoice.isBookingRequest
              ? t('booking.details.submitRequest')
              : t('booking.details.submit')}
        </Button>
      </div>
      {booking.submission.modalFailure && (
        <ModalDialog
          role="alertdialog"
          title={t('booking.errors.title')}
          onDismiss={() => void booking.closeFailure()}
          actions={<Button onClick={() => void booking.closeFailure()}>{t('action.close')}</Button>}
        >
          <p>{failureText(t, booking.submission.modalFailure)}</p>
          <CallbackLink />
        </ModalDialog>
      )}
    </div>
  );
});
