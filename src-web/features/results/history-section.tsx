import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useEffect, useRef, type FormEvent, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { useStores } from '../../stores/use-stores';
import { formatStartTime } from '../booking/public';
import { historyStoreOf, type HistoryItem, type HistoryStore, type MatchField, type MatchProblem } from './history-store';
import { ExamFactItems, ImagesAction, ReportFactItems, ReportPdfLinks, ReportText } from './report-parts';

function problemText(t: TFunction, field: MatchField, problem: MatchProblem): string {
  switch (field) {
    case 'dateOfBirth':
      if (problem === 'required') return t('results.history.problems.dateOfBirthRequired');
      return problem === 'future' ? t('results.history.problems.dateOfBirthFuture') : t('results.history.problems.dateOfBirthInvalid');
    case 'email':
      return problem === 'required' ? t('results.history.problems.emailRequired') : t('results.history.problems.emailInvalid');
    case 'phone':
      return problem === 'required' ? t('results.history.problems.phoneRequired') : t('results.history.problems.phoneInvalid');
  }
}

interface FieldProps {
  store: HistoryStore;
  field: MatchField;
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  inputProps: InputHTMLAttributes<HTMLInputElement>;
}

const Field = observer(function Field({ store, field, label, hint, value, onChange, inputProps }: FieldProps) {
  const { t } = useTranslation();
  const problem = store.visibleProblem(field);
  return (
    <TextField
      id={`pp-history-${field}`}
      name={field}
      label={label}
      hint={hint}
      value={value}
      problem={problem ? problemText(t, field, problem) : null}
      onChange={onChange}
      onBlur={() => store.touch(field)}
      inputProps={inputProps}
    />
  );
});

/** The patient match form: date of birth, then e-mail or phone (one of them). */
const MatchForm = observer(function MatchForm({ store }: { store: HistoryStore }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await store.submit();
    const first = store.firstInvalid;
    if (first) formRef.current?.querySelector<HTMLElement>(`#pp-history-${first}`)?.focus();
  };
  return (
    <form
      ref={formRef}
      className="pp-history-form"
      noValidate
      aria-busy={store.searching}
      aria-describedby="pp-history-intro"
      onSubmit={(event) => void onSubmit(event)}
    >
      <Field
        store={store}
        field="dateOfBirth"
        label={t('results.history.dateOfBirth')}
        value={store.dateOfBirth}
        onChange={(value) => store.setDateOfBirth(value)}
        inputProps={{ type: 'date', min: '1900-01-01', required: true, 'aria-required': true, autoComplete: 'bday' }}
      />
      <fieldset className="pp-field pp-history-choice">
        <legend>{t('results.history.contactLegend')}</legend>
        {(['email', 'phone'] as const).map((kind) => (
          <label key={kind} className="pp-choice">
            <input
              type="radio"
              name="pp-history-contact"
              value={kind}
              checked={store.contactKind === kind}
              onChange={() => store.setContactKind(kind)}
            />
            {kind === 'email' ? t('results.history.useEmail') : t('results.history.usePhone')}
          </label>
        ))}
      </fieldset>
      {store.contactKind === 'email' ? (
        <Field
          store={store}
          field="email"
          label={t('results.history.email')}
          value={store.email}
          onChange={(value) => store.setEmail(value)}
          inputProps={{ type: 'email', required: true, 'aria-required': true, autoComplete: 'email', maxLength: 254 }}
        />
      ) : (
        <Field
          store={store}
          field="phone"
          label={t('results.history.phone')}
          hint={t('results.history.phoneHint')}
          value={store.phone}
          onChange={(value) => store.setPhone(value)}
          inputProps={{ type: 'tel', required: true, 'aria-required': true, autoComplete: 'tel', inputMode: 'tel' }}
        />
      )}
      <Button type="submit" aria-disabled={store.searching}>
        {t('results.history.submit')}
      </Button>
      {store.searching && (
        <p role="status" className="pp-muted">
          {t('results.history.searching')}
        </p>
      )}
    </form>
  );
});

/** One earlier appointment: exam, clinic and date in the clinic's zone; the report once released. */
const HistoryEntry = observer(function HistoryEntry({ store, item }: { store: HistoryStore; item: HistoryItem }) {
  const { t, i18n } = useTranslation();
  const { appointment } = item;
  const titleId = `pp-history-item-${appointment.resultId}`;
  return (
    <li className="pp-history-item" aria-labelledby={titleId}>
      <h3 id={titleId}>{appointment.examName}</h3>
      <dl className="pp-details">
        <ExamFactItems exam={appointment} />
        {appointment.state === 'RELEASED' && appointment.referrerName !== null && appointment.reportedAt !== null && (
          <ReportFactItems report={{ ...appointment, referrerName: appointment.referrerName, reportedAt: appointment.reportedAt }} />
        )}
      </dl>
      {appointment.state === 'RELEASED' ? (
        <>
          <ReportText text={appointment.reportText ?? ''} />
          <ReportPdfLinks viewUrl={store.pdfUrl(item, false)} downloadUrl={store.pdfUrl(item, true)} />
          <ImagesAction
            opener={item.images}
            hasLink={appointment.imageViewerLink !== null}
            onOpen={() => void store.openImages(item)}
            level={4}
          />
        </>
      ) : (
        <p className="pp-notice" data-state="NOT_RELEASED">
          {t('results.history.notReleased', {
            date: formatStartTime(appointment.releaseAt, i18n.language, appointment.timeZone, true),
          })}
        </p>
      )}
    </li>
  );
});

const HistoryView = observer(function HistoryView({ store }: { store: HistoryStore }) {
  const { t } = useTranslation();
  return (
    <section className="pp-history" aria-labelledby="pp-history-title">
      <h2 id="pp-history-title">{t('results.history.title')}</h2>
      <p id="pp-history-intro">{t('results.history.intro')}</p>
      <MatchForm store={store} />
      {store.error && (
        <p role="alert" className="pp-notice pp-notice-error" data-error={store.error}>
          {store.error === 'noMatch' ? t('message.patient_matching_error') : t('results.history.failed')}
        </p>
      )}
      {store.items !== null &&
        (store.items.length === 0 ? (
          <p className="pp-notice" role="status">
            {t('message.patient_matching_error')}
          </p>
        ) : (
          <ul className="pp-history-list" aria-label={t('results.history.listLabel')}>
            {store.items.map((item) => (
              <HistoryEntry key={item.appointment.resultId} store={store} item={item} />
            ))}
          </ul>
        ))}
    </section>
  );
});

/** "Your earlier results" below the patient portal's result (PATIENT_PORTAL sessions only). */
export const HistorySection = observer(function HistorySection({
  bookingKey,
  dateOfBirth,
}: {
  bookingKey: string;
  dateOfBirth: string | null;
}) {
  const root = useStores();
  const store = root.featureStore(historyStoreOf);
  useEffect(() => {
    store.start(bookingKey, dateOfBirth);
    return () => store.dispose();
  }, [store, bookingKey, dateOfBirth]);
  return <HistoryView store={store} />;
});
