import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useStores } from '../../stores/use-stores';
import type { StaffKiosksStore } from './staff-kiosks-store';

/** "Add a kiosk": a name (1 to 80 characters) and, optionally, its clinic. */
export const AddKioskForm = observer(function AddKioskForm({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const { content } = useStores();
  const nameId = useId();
  const errorId = useId();
  const hintId = useId();
  const clinicId = useId();
  const clinics = [...content.clinics].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <section aria-labelledby="pp-staff-kiosk-add-heading" className="pp-staff-kiosk-add">
      <h2 id="pp-staff-kiosk-add-heading">{t('staffKiosks.add.heading')}</h2>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void store.add().then((added) => {
            if (!added && store.nameInvalid) document.getElementById(nameId)?.focus();
          });
        }}
      >
        <div className={store.nameInvalid ? 'pp-field pp-field-invalid' : 'pp-field'}>
          <label htmlFor={nameId}>{t('staffKiosks.add.name')}</label>
          <p id={hintId} className="pp-field-hint">
            {t('staffKiosks.add.nameHint')}
          </p>
          <input
            id={nameId}
            className="pp-input"
            value={store.name}
            autoComplete="off"
            required
            aria-invalid={store.nameInvalid}
            aria-describedby={store.nameInvalid ? `${errorId} ${hintId}` : hintId}
            onChange={(event) => store.setName(event.target.value)}
          />
          {store.nameInvalid && (
            <p id={errorId} className="pp-field-error">
              {t('staffKiosks.add.nameError')}
            </p>
          )}
        </div>
        <div className="pp-field">
          <label htmlFor={clinicId}>{t('staffKiosks.add.clinic')}</label>
          <select id={clinicId} className="pp-input" value={store.clinicSlug} onChange={(event) => store.setClinicSlug(event.target.value)}>
            <option value="">{t('staffKiosks.add.noClinic')}</option>
            {clinics.map((clinic) => (
              <option key={clinic.slug} value={clinic.slug}>
                {clinic.name}
              </option>
            ))}
          </select>
          {content.clinicsState === 'error' && <p className="pp-field-hint">{t('staffKiosks.add.clinicsUnavailable')}</p>}
        </div>
        <Button type="submit" disabled={store.busy}>
          {t('staffKiosks.add.submit')}
        </Button>
      </form>
    </section>
  );
});
