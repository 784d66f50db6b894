import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { KioskCheckInStore } from './kiosk-check-in-store';
import type { DateParts } from './kiosk-identity';

/**
 * The date of birth as day, month and year (numeric fields, no date picker), shared by the
 * welcome form and the screen after a scanned booking code (kiosk-code-identity.tsx).
 */

function DateProblemText({ store }: { store: KioskCheckInStore }) {
  const { t } = useTranslation();
  switch (store.dateOfBirthProblem) {
    case 'required':
      return <>{t('kiosk.welcome.dateRequired')}</>;
    case 'invalid':
      return <>{t('kiosk.welcome.dateInvalid')}</>;
    case 'future':
      return <>{t('kiosk.welcome.dateFuture')}</>;
    case null:
      return null;
  }
}

const DatePart = observer(function DatePart({
  store,
  part,
  label,
  describedBy,
}: {
  store: KioskCheckInStore;
  part: keyof DateParts;
  label: string;
  describedBy: string;
}) {
  const id = useId();
  const invalid = store.identityTouched && store.dateOfBirthProblem !== null;
  return (
    <div className={`pp-kiosk-date-part pp-kiosk-date-${part}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="pp-kiosk-input"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete={part === 'day' ? 'bday-day' : part === 'month' ? 'bday-month' : 'bday-year'}
        maxLength={part === 'year' ? 4 : 2}
        value={store.dateOfBirth[part]}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(event) => store.setDatePart(part, event.target.value)}
      />
    </div>
  );
});

/** The fieldset: legend, example, the three fields and the problem under them (said once the form was sent). */
export const DateOfBirthFields = observer(function DateOfBirthFields({ store }: { store: KioskCheckInStore }) {
  const { t } = useTranslation();
  const id = useId();
  const dateInvalid = store.identityTouched && store.dateOfBirthProblem !== null;
  const describedBy = `${id}-date-hint ${id}-date-error`;
  return (
    <fieldset className="pp-kiosk-date">
      <legend>{t('kiosk.welcome.dateOfBirth')}</legend>
      <p id={`${id}-date-hint`} className="pp-kiosk-hint">
        {t('kiosk.welcome.dateHint')}
      </p>
      <div className="pp-kiosk-date-parts">
        <DatePart store={store} part="day" label={t('kiosk.welcome.day')} describedBy={describedBy} />
        <DatePart store={store} part="month" label={t('kiosk.welcome.month')} describedBy={describedBy} />
        <DatePart store={store} part="year" label={t('kiosk.welcome.year')} describedBy={describedBy} />
      </div>
      <p id={`${id}-date-error`} className="pp-kiosk-error">
        {dateInvalid && <DateProblemText store={store} />}
      </p>
    </fieldset>
  );
});
