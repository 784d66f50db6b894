import { observer } from 'mobx-react-lite';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { FoundPatient } from '@contract/api/patient-lookup';
import { createPatientLookupApi } from './patient-lookup-api';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { formatCalendarDate } from '../../platform/dates';
import type { FeatureStoreContext } from '../../stores/root-store';
import { useStores } from '../../stores/use-stores';
import { formatInstant } from './booking-calendar';
import type { PatientField, PatientForm } from './booking-patient-form';
import { LOOKUP_MODES, PatientLookupStore, type LookupField, type LookupMode, type LookupProblem } from './patient-lookup-store';
import './patient-lookup.css';

const lookupApiOf = (context: FeatureStoreContext) => createPatientLookupApi(context.client);

/** One literal t() per key, so the catalogue check sees every one. */
function modeLabel(t: TFunction, mode: LookupMode): string {
  switch (mode) {
    case 'name':
      return t('booking.lookup.modes.name');
    case 'phone':
      return t('booking.lookup.modes.phone');
    case 'email':
      return t('booking.lookup.modes.email');
  }
}

function fieldLabel(t: TFunction, field: LookupField): string {
  switch (field) {
    case 'lastName':
      return t('booking.lookup.fields.lastName');
    case 'firstName':
      return t('booking.lookup.fields.firstName');
    case 'dateOfBirth':
      return t('booking.lookup.fields.dateOfBirth');
    case 'phone':
      return t('booking.lookup.fields.phone');
    case 'email':
      return t('booking.lookup.fields.email');
  }
}

function fieldProblem(t: TFunction, field: LookupField): string {
  switch (field) {
    case 'lastName':
      return t('booking.lookup.problems.lastName');
    case 'firstName':
      return t('booking.lookup.problems.firstName');
    case 'dateOfBirth':
      return t('booking.lookup.problems.dateOfBirth');
    case 'phone':
      return t('booking.lookup.problems.phone');
    case 'email':
      return t('booking.lookup.problems.email');
  }
}

function problemText(t: TFunction, problem: LookupProblem): string {
  switch (problem) {
    case 'tooMany':
      return t('booking.lookup.problems.tooMany');
    case 'signInNeeded':
      return t('booking.lookup.problems.signInNeeded');
    case 'roleNeeded':
      return t('booking.lookup.problems.roleNeeded');
    case 'unavailable':
      return t('booking.lookup.problems.unavailable');
  }
}

const INPUT: Record<LookupField, { type: string; autoComplete: string; short?: boolean }> = {
  lastName: { type: 'text', autoComplete: 'off' },
  firstName: { type: 'text', autoComplete: 'off' },
  dateOfBirth: { type: 'date', autoComplete: 'off', short: true },
  phone: { type: 'tel', autoComplete: 'off' },
  email: { type: 'email', autoComplete: 'off' },
};

/** The found person's details into the booking's form; fields the person has no value for stay as they are. */
export function fillForm(form: PatientForm, patient: FoundPatient): void {
  const values: Partial<Record<PatientField, string>> = {
    title: patient.title ?? '',
    firstName: patient.firstName,
    lastName: patient.lastName,
    dateOfBirth: patient.dateOfBirth,
    email: patient.email,
    contactNumber: patient.contactNumber,
    postalCode: patient.postalCode,
  };
  for (const [field, value] of Object.entries(values) as [PatientField, string][]) {
    if (value !== '') {
      form.setValue(field, value);
      form.touch(field);
    }
  }
}

const FoundList = observer(function FoundList({ store, onUse }: { store: PatientLookupStore; onUse: (patient: FoundPatient) => void }) {
  const { t, i18n } = useTranslation();
  const { content } = useStores();
  const results = store.results;
  if (results === null) return null;
  if (results.length === 0) {
    return (
      <p role="status" className="pp-notice">
        {t('booking.lookup.none')}
      </p>
    );
  }
  const zone = content.clinics[0]?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <>
      <p role="status" className="pp-visually-hidden">
        {t('booking.lookup.foundCount', { count: results.length })}
      </p>
      <ul className="pp-lookup-results" aria-label={t('booking.lookup.resultsLabel')}>
        {results.map((patient, index) => {
          const name = `${patient.firstName} ${patient.lastName}`;
          return (
            <li key={`${name}-${patient.dateOfBirth}-${patient.email}-${index}`} className="pp-lookup-result">
              <div>
                <p className="pp-lookup-name">{patient.title ? `${patient.title} ${name}` : name}</p>
                <p>{t('booking.lookup.born', { date: formatCalendarDate(patient.dateOfBirth, i18n.language) })}</p>
                <p>{[patient.contactNumber, patient.email].filter(Boolean).join(' · ')}</p>
                {patient.lastAppointment && (
                  <p className="pp-lookup-last">
                    {t('booking.lookup.lastAppointment', {
                      exam: patient.lastAppointment.examName,
                      clinic: patient.lastAppointment.clinicName,
                      date: formatInstant(patient.lastAppointment.startsAt, i18n.language, zone, {
                        day: 'numeric',
                        month: 'short',
                        year: 'numeric',
                      }),
                    })}
                  </p>
                )}
              </div>
              <Button variant="secondary" onClick={() => onUse(patient)} aria-label={t('booking.lookup.useFor', { name })}>
                {t('booking.lookup.use')}
              </Button>
            </li>
          );
        })}
      </ul>
      {store.more && <p className="pp-notice">{t('booking.lookup.more')}</p>}
    </>
  );
});

/**
 * Staff booking for a patient who booked before (docs/rules/booking.md#patient-lookup): find them by
 * last name and date of birth, phone or e-mail, and put their details in the form below to check
 * with them. Shown only in a staff booking; its code loads only then.
 */
export const PatientLookup = observer(function PatientLookup({ form }: { form: PatientForm }) {
  const root = useStores();
  const { t } = useTranslation();
  const [store] = useState(() => new PatientLookupStore({ api: root.featureStore(lookupApiOf) }));
  const headingId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const filledRef = useRef<HTMLParagraphElement>(null);

  const onSearch = async (event: FormEvent) => {
    event.preventDefault();
    await store.search();
    const first = store.firstInvalidField;
    if (first) formRef.current?.querySelector<HTMLElement>(`#lookup-${first}`)?.focus();
  };

  const onUse = (patient: FoundPatient) => {
    fillForm(form, patient);
    store.markUsed(patient);
    // Said where the focus goes, so a screen reader hears what happened; the form follows below.
    requestAnimationFrame(() => filledRef.current?.focus());
  };

  return (
    <section className="pp-lookup" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('booking.lookup.title')}</h2>
      <p>{t('booking.lookup.intro')}</p>
      <form ref={formRef} noValidate onSubmit={(event) => void onSearch(event)}>
        <fieldset className="pp-lookup-modes">
          <legend>{t('booking.lookup.modesLegend')}</legend>
          {LOOKUP_MODES.map((mode) => (
            <label key={mode} className="pp-lookup-mode">
              <input type="radio" name="lookup-mode" value={mode} checked={store.mode === mode} onChange={() => store.setMode(mode)} />
              {modeLabel(t, mode)}
            </label>
          ))}
        </fieldset>
        <div className="pp-lookup-fields">
          {store.fields.map((field) => (
            <TextField
              key={field}
              id={`lookup-${field}`}
              name={field}
              label={fieldLabel(t, field)}
              hint={field === 'firstName' ? t('booking.lookup.hints.firstName') : undefined}
              value={store.values[field]}
              problem={store.invalid(field) ? fieldProblem(t, field) : null}
              onChange={(value) => store.setValue(field, value)}
              inputProps={{
                type: INPUT[field].type,
                autoComplete: INPUT[field].autoComplete,
                max: field === 'dateOfBirth' ? root.booking.today : undefined,
              }}
              className={INPUT[field].short ? 'pp-input pp-input-short' : 'pp-input'}
            />
          ))}
        </div>
        <Button type="submit" disabled={store.searching}>
          {store.searching ? t('booking.lookup.searching') : t('booking.lookup.search')}
        </Button>
      </form>
      {store.problem && (
        <p role="alert" className="pp-notice pp-notice-error">
          {problemText(t, store.problem)}
        </p>
      )}
      <FoundList store={store} onUse={onUse} />
      {store.used && (
        <p ref={filledRef} tabIndex={-1} role="status" className="pp-notice pp-notice-success">
          {t('booking.lookup.filled', { name: `${store.used.firstName} ${store.used.lastName}` })}
        </p>
      )}
    </section>
  );
});
