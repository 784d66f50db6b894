import { observer } from 'mobx-react-lite';
import { makeAutoObservable, runInAction } from 'mobx';
import { useEffect, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { BookingFormDetails, InsuranceKind } from '@contract/api/booking-form-details';
import { createBookingFormDetailsApi, type BookingFormDetailsApi } from './booking-form-details-api';
import type { FeatureStoreContext } from '../../stores/root-store';
import { useStores } from '../../stores/use-stores';
import { Button } from '../../components/button';
import { FormDetailsForm, type DetailsField, type DetailsProblem } from './booking-form-details';
import type { PatientForm } from './booking-patient-form';
import './booking-form-details.css';

/**
 * The booking form's details on the details step (docs/rules/booking.md#booking-form-details): how
 * the exam is paid for, the ethnicity question and the referring practice. A chunk of its own,
 * loaded with the step, so neither the booking home nor the step's first paint waits for it.
 */

/** The provider's lists, loaded once per visit (they change rarely; a failure leaves the questions off). */
class FormDetailsConfig {
  config: BookingFormDetails | null = null;
  private loading: Promise<void> | null = null;

  constructor(readonly api: BookingFormDetailsApi) {
    makeAutoObservable<this, 'loading'>(this, { api: false, loading: false });
  }

  load(): Promise<void> {
    const loading =
      this.loading ??
      this.api.formDetails().then(
        (config) => runInAction(() => void (this.config = config)),
        () => {
          // Not fatal: the booking goes ahead without the questions; a later visit to the step tries again.
          this.loading = null;
        },
      );
    this.loading = loading;
    return loading;
  }
}

const configOf = (context: FeatureStoreContext) => new FormDetailsConfig(createBookingFormDetailsApi(context.client));

/** The search waits for a pause in typing, so a name typed quickly is one search. */
const SEARCH_PAUSE_MS = 300;

/** The ABS answers are ours and translated; a provider's own answers show as configured. */
function ethnicityText(t: TFunction, code: string, label: string): string {
  switch (code) {
    case 'NO':
      return t('booking.formDetails.ethnicity.options.NO');
    case 'ABORIGINAL':
      return t('booking.formDetails.ethnicity.options.ABORIGINAL');
    case 'TORRES_STRAIT_ISLANDER':
      return t('booking.formDetails.ethnicity.options.TORRES_STRAIT_ISLANDER');
    case 'BOTH':
      return t('booking.formDetails.ethnicity.options.BOTH');
    case 'NOT_STATED':
      return t('booking.formDetails.ethnicity.options.NOT_STATED');
    default:
      return label;
  }
}

function memberNumberLabel(t: TFunction, kind: InsuranceKind | undefined): string {
  return kind === 'DVA' ? t('booking.formDetails.insurance.dvaFileNumber') : t('booking.formDetails.insurance.memberNumber');
}

function problemText(t: TFunction, field: DetailsField, problem: DetailsProblem): string {
  switch (field) {
    case 'insurance':
      return t('booking.formDetails.problems.insuranceRequired');
    case 'memberNumber':
      return problem === 'required'
        ? t('booking.formDetails.problems.memberNumberRequired')
        : t('booking.formDetails.problems.memberNumber');
    case 'fundName':
      return problem === 'required' ? t('booking.formDetails.problems.fundNameRequired') : t('booking.formDetails.problems.fundName');
    case 'ethnicity':
      return t('booking.formDetails.problems.ethnicityRequired');
    case 'practiceName':
      return problem === 'required' ? t('booking.formDetails.problems.practiceRequired') : t('booking.formDetails.problems.practiceName');
  }
}

function Problem({ details, field }: { details: FormDetailsForm; field: DetailsField }) {
  const { t } = useTranslation();
  const problem = details.visibleProblem(field);
  if (!problem) return null;
  return (
    <p id={`booking-${field}-error`} className="pp-field-error">
      {problemText(t, field, problem)}
    </p>
  );
}

interface ChoiceFieldProps {
  details: FormDetailsForm;
  field: 'insurance' | 'ethnicity';
  legend: string;
  hint?: string;
  required: boolean;
  choices: { code: string; label: string }[];
  chosen: string | null;
  onChoose(code: string): void;
}

/** One question answered by a radio choice, with its hint and its problem read out with the group. */
const ChoiceField = observer(function ChoiceField({ details, field, legend, hint, required, choices, chosen, onChoose }: ChoiceFieldProps) {
  const { t } = useTranslation();
  const invalid = details.visibleProblem(field) !== null;
  const hintId = hint === undefined ? null : `booking-${field}-hint`;
  return (
    <fieldset
      id={`booking-${field}`}
      tabIndex={-1}
      className={invalid ? 'pp-field pp-field-invalid' : 'pp-field'}
      aria-describedby={[hintId, invalid ? `booking-${field}-error` : null].filter(Boolean).join(' ') || undefined}
    >
      <legend>
        {legend}
        {!required && <span className="pp-muted"> {t('booking.formDetails.optional')}</span>}
      </legend>
      {hint !== undefined && (
        <p id={hintId ?? undefined} className="pp-field-hint">
          {hint}
        </p>
      )}
      {choices.map((choice) => (
        <label key={choice.code} className="pp-choice">
          <input
            type="radio"
            name={`booking-${field}`}
            value={choice.code}
            checked={chosen === choice.code}
            onChange={() => onChoose(choice.code)}
          />
          {choice.label}
        </label>
      ))}
      <Problem details={details} field={field} />
    </fieldset>
  );
});

const TextField = observer(function TextField({
  details,
  field,
  label,
  hint,
}: {
  details: FormDetailsForm;
  field: 'memberNumber' | 'fundName';
  label: string;
  hint?: string;
}) {
  const id = `booking-${field}`;
  const problem = details.visibleProblem(field);
  const describedBy = [hint ? `${id}-hint` : null, problem ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={problem ? 'pp-field pp-field-invalid' : 'pp-field'}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="pp-field-hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        className="pp-input"
        autoComplete="off"
        aria-required
        aria-invalid={problem !== null}
        aria-describedby={describedBy}
        value={field === 'memberNumber' ? details.memberNumber : details.fundName}
        onChange={(event) => details.setValue(field, event.target.value)}
        onBlur={() => details.touch(field)}
      />
      <Problem details={details} field={field} />
    </div>
  );
});

const Insurance = observer(function Insurance({ details, medicareField }: { details: FormDetailsForm; medicareField: ReactNode }) {
  const { t } = useTranslation();
  const { insurance } = details.config;
  const kind = details.insuranceType?.kind;
  return (
    <>
      <ChoiceField
        details={details}
        field="insurance"
        legend={t('booking.formDetails.insurance.legend')}
        required={insurance.required}
        choices={insurance.types.map((type) => ({ code: type.code, label: type.label }))}
        chosen={details.insuranceCode}
        onChoose={(code) => details.setInsurance(code)}
      />
      {kind === 'MEDICARE' && medicareField}
      {kind === 'PRIVATE' && (
        <TextField
          details={details}
          field="fundName"
          label={t('booking.formDetails.insurance.fundName')}
          hint={t('booking.formDetails.insurance.fundNameHint')}
        />
      )}
      {(kind === 'DVA' || kind === 'PRIVATE') && <TextField details={details} field="memberNumber" label={memberNumberLabel(t, kind)} />}
    </>
  );
});

const Ethnicity = observer(function Ethnicity({ details }: { details: FormDetailsForm }) {
  const { t } = useTranslation();
  const { booking } = useStores();
  const { ethnicity } = details.config;
  return (
    <ChoiceField
      details={details}
      field="ethnicity"
      legend={booking.staffBooking ? t('booking.formDetails.ethnicity.legendStaff') : t('booking.formDetails.ethnicity.legend')}
      hint={t('booking.formDetails.ethnicity.hint')}
      required={ethnicity.required}
      choices={ethnicity.options.map((option) => ({ code: option.code, label: ethnicityText(t, option.code, option.label) }))}
      chosen={details.ethnicityCode}
      onChoose={(code) => details.setEthnicity(code)}
    />
  );
});

/** The practice's name: typed, with the directory's matching practices listed under it to choose from. */
const Practice = observer(function Practice({ details }: { details: FormDetailsForm }) {
  const { t } = useTranslation();
  const listId = useId();
  const statusId = useId();
  const problem = details.visibleProblem('practiceName');
  const { practiceName } = details;
  useEffect(() => {
    const timer = setTimeout(() => void details.searchPractices(), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [details, practiceName]);
  const found = details.searchedFor !== null && details.searchText === details.searchedFor;
  const describedBy = ['booking-practiceName-hint', statusId, problem ? 'booking-practiceName-error' : null].filter(Boolean).join(' ');
  return (
    <div className={problem ? 'pp-field pp-field-invalid' : 'pp-field'}>
      <label htmlFor="booking-practiceName">
        {t('booking.formDetails.practice.label')}
        {!details.config.referringPractice.required && <span className="pp-muted"> {t('booking.formDetails.optional')}</span>}
      </label>
      <p id="booking-practiceName-hint" className="pp-field-hint">
        {t('booking.formDetails.practice.hint')}
      </p>
      <input
        id="booking-practiceName"
        className="pp-input"
        type="search"
        autoComplete="off"
        maxLength={200}
        aria-invalid={problem !== null}
        aria-describedby={describedBy}
        value={practiceName}
        onChange={(event) => details.setPracticeName(event.target.value)}
        onBlur={() => details.touch('practiceName')}
      />
      <p id={statusId} role="status" className="pp-field-hint">
        {details.practiceSuburb !== ''
          ? t('booking.formDetails.practice.chosen', { name: practiceName, suburb: details.practiceSuburb })
          : details.searching
            ? t('booking.formDetails.practice.searching')
            : details.searchFailed
              ? t('booking.formDetails.practice.searchFailed')
              : found && details.organisations.length === 0
                ? t('booking.formDetails.practice.noneFound')
                : found
                  ? t('booking.formDetails.practice.found', { count: details.organisations.length })
                  : ''}
      </p>
      {found && details.organisations.length > 0 && (
        <ul id={listId} className="pp-practice-list" aria-label={t('booking.formDetails.practice.listLabel')}>
          {details.organisations.map((organisation) => (
            <li key={`${organisation.name}|${organisation.suburb}`}>
              <button type="button" className="pp-practice-option" onClick={() => details.choosePractice(organisation)}>
                <strong>{organisation.name}</strong>
                <span className="pp-muted">{organisation.suburb}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Problem details={details} field="practiceName" />
    </div>
  );
});

/**
 * The questions, in a section after the patient's fields. `medicareField` is the patient form's
 * Medicare number, shown here under the choice when Medicare pays (and the exams do not ask it anyway).
 */
export const BookingFormDetailsFields = observer(function BookingFormDetailsFields({
  form,
  medicareField,
}: {
  form: PatientForm;
  medicareField: ReactNode;
}) {
  const { t } = useTranslation();
  const root = useStores();
  const { booking } = root;
  const store = root.featureStore(configOf);
  const config = store.config;
  useEffect(() => {
    void store.load();
  }, [store]);
  useEffect(() => {
    if (config !== null && form.details === null) form.attachDetails(new FormDetailsForm(config, store.api.organisations));
  }, [config, form, store]);
  const details = form.details;
  if (details === null || details.fields.length === 0) return null;
  const open = () => {
    details.open();
    // The button goes away: the focus moves to the first question, so the next Tab reaches its answers.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('.pp-form-details fieldset, #booking-practiceName')?.focus());
  };
  return (
    <section className="pp-form-details" aria-labelledby="booking-form-details-title">
      <h3 id="booking-form-details-title">{t('booking.formDetails.title')}</h3>
      {details.collapsed ? (
        <>
          <p className="pp-field-hint">
            {booking.staffBooking ? t('booking.formDetails.collapsedHintStaff') : t('booking.formDetails.collapsedHint')}
          </p>
          <Button variant="secondary" aria-expanded={false} onClick={open}>
            {t('booking.formDetails.open')}
          </Button>
        </>
      ) : (
        <FormDetailsQuestions details={details} medicareField={medicareField} />
      )}
    </section>
  );
});

const FormDetailsQuestions = observer(function FormDetailsQuestions({
  details,
  medicareField,
}: {
  details: FormDetailsForm;
  medicareField: ReactNode;
}) {
  return (
    <>
      {details.fields.includes('insurance') && <Insurance details={details} medicareField={medicareField} />}
      {details.fields.includes('ethnicity') && <Ethnicity details={details} />}
      {details.fields.includes('practiceName') && <Practice details={details} />}
    </>
  );
});
