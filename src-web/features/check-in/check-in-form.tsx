import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useId, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GENDERS } from '@contract/api/check-in';
import { Button } from '../../components/button';
import type { CheckInField, CheckInStore } from './check-in-store';

/** Every key literal, so the catalogue check sees each. */
function errorText(t: TFunction, field: CheckInField): string {
  switch (field) {
    case 'referrer':
      return t('checkIn.errors.referrer');
    case 'dateOfReferral':
      return t('checkIn.errors.dateOfReferral');
    case 'medicareNumber':
      return t('checkIn.errors.medicareNumber');
    case 'referenceNumber':
      return t('checkIn.errors.referenceNumber');
    case 'gender':
      return t('checkIn.errors.gender');
  }
}

function genderText(t: TFunction, gender: (typeof GENDERS)[number]): string {
  switch (gender) {
    case 'FEMALE':
      return t('checkIn.genderFemale');
    case 'MALE':
      return t('checkIn.genderMale');
    case 'OTHER':
      return t('checkIn.genderOther');
  }
}

/** A labelled field with its hint and, once the patient has left it, its error. */
const Field = observer(function Field({
  store,
  field,
  label,
  hint,
  children,
}: {
  store: CheckInStore;
  field: CheckInField;
  label: string;
  hint?: string;
  children: (props: { id: string; 'aria-describedby': string | undefined; 'aria-invalid': boolean }) => ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const invalid = store.shows(field);
  const describedBy = [hint ? `${id}-hint` : null, invalid ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={invalid ? 'pp-field pp-field-invalid' : 'pp-field'}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="pp-field-hint">
          {hint}
        </p>
      )}
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': invalid })}
      {invalid && (
        <p id={`${id}-error`} className="pp-field-error">
          {errorText(t, field)}
        </p>
      )}
    </div>
  );
});

/** The referring doctor: search (from 3 characters), a list of buttons to choose from, the chosen one with Change. */
const DoctorField = observer(function DoctorField({ store }: { store: CheckInStore }) {
  const { t } = useTranslation();
  const doctor = store.referrer;
  if (doctor) {
    return (
      <div className="pp-field">
        <p className="pp-field-label">{t('checkIn.doctor')}</p>
        <p className="pp-checkin-doctor" data-testid="chosen-doctor">
          {t('checkIn.doctorChosen', { name: doctor.displayName, practice: doctor.practiceName, city: doctor.city })}{' '}
          <button type="button" className="pp-link-button" onClick={() => store.clearDoctor()}>
            {t('checkIn.doctorChange')}
          </button>
        </p>
      </div>
    );
  }
  const typed = store.searchText.trim().length >= 3;
  return (
    <Field store={store} field="referrer" label={t('checkIn.doctor')} hint={t('checkIn.doctorHint')}>
      {(props) => (
        <>
          <input
            {...props}
            className="pp-input"
            type="search"
            autoComplete="off"
            value={store.searchText}
            onChange={(event) => store.setSearchText(event.target.value)}
            onBlur={() => store.touch('referrer')}
          />
          <div aria-live="polite" className="pp-checkin-results">
            {store.searching && <p className="pp-muted">{t('checkIn.doctorSearching')}</p>}
            {!store.searching && store.searchFailed && <p className="pp-field-error">{t('checkIn.doctorSearchFailed')}</p>}
            {!store.searching && !store.searchFailed && typed && store.searchResults.length === 0 && (
              <p className="pp-muted">{t('checkIn.doctorNone')}</p>
            )}
            {store.searchResults.length > 0 && (
              <ul className="pp-checkin-doctors">
                {store.searchResults.map((result) => (
                  <li key={result.id}>
                    <button
                      type="button"
                      className="pp-checkin-doctor-choice"
                      aria-label={t('checkIn.doctorChoose', {
                        name: result.displayName,
                        practice: result.practiceName,
                        city: result.city,
                        postcode: result.postcode,
                      })}
                      onClick={() => store.chooseDoctor(result)}
                    >
                      <strong>{result.displayName}</strong>
                      <span>
                        {result.practiceName}, {result.city} {result.postcode}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </Field>
  );
});

/** The check-in form (docs/rules/check-in.md#digital-check-in): submit stays disabled while it is invalid or a check-in is on its way. */
export const CheckInForm = observer(function CheckInForm({ store, today }: { store: CheckInStore; today: string }) {
  const { t } = useTranslation();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void store.submit();
  };
  return (
    <form noValidate onSubmit={onSubmit} className="pp-form pp-checkin-form">
      <DoctorField store={store} />
      <Field store={store} field="dateOfReferral" label={t('checkIn.dateOfReferral')}>
        {(props) => (
          <input
            {...props}
            className="pp-input pp-input-short"
            type="date"
            max={today}
            value={store.dateOfReferral}
            onChange={(event) => store.setField('dateOfReferral', event.target.value)}
            onBlur={() => store.touch('dateOfReferral')}
          />
        )}
      </Field>
      <Field store={store} field="medicareNumber" label={t('checkIn.medicareNumber')} hint={t('checkIn.medicareHint')}>
        {(props) => (
          <input
            {...props}
            className="pp-input pp-input-short"
            inputMode="numeric"
            autoComplete="off"
            value={store.medicareNumber}
            onChange={(event) => store.setField('medicareNumber', event.target.value)}
            onBlur={() => store.touch('medicareNumber')}
          />
        )}
      </Field>
      <Field store={store} field="referenceNumber" label={t('checkIn.referenceNumber')} hint={t('checkIn.referenceHint')}>
        {(props) => (
          <input
            {...props}
            className="pp-input pp-input-tiny"
            inputMode="numeric"
            maxLength={1}
            autoComplete="off"
            value={store.referenceNumber}
            onChange={(event) => store.setField('referenceNumber', event.target.value)}
            onBlur={() => store.touch('referenceNumber')}
          />
        )}
      </Field>
      {store.status?.showGenderSelection && (
        <fieldset className={store.shows('gender') ? 'pp-field pp-field-invalid' : 'pp-field'}>
          <legend>{t('checkIn.gender')}</legend>
          {GENDERS.map((gender) => (
            <label key={gender} className="pp-choice">
              <input type="radio" name="gender" value={gender} checked={store.gender === gender} onChange={() => store.setGender(gender)} />{' '}
              {genderText(t, gender)}
            </label>
          ))}
          {store.shows('gender') && <p className="pp-field-error">{errorText(t, 'gender')}</p>}
        </fieldset>
      )}
      <div className="pp-actions">
        <Button type="submit" disabled={!store.canSubmit}>
          {t('checkIn.submit')}
        </Button>
      </div>
    </form>
  );
});
