import { observer } from 'mobx-react-lite';
import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import type { EnrollProblem, KioskDeviceStore } from './kiosk-device-store';

function ProblemText({ problem }: { problem: EnrollProblem }) {
  const { t } = useTranslation();
  switch (problem) {
    case 'format':
      return <>{t('kiosk.enroll.format')}</>;
    case 'rejected':
      return <>{t('kiosk.enroll.rejected')}</>;
    case 'failed':
      return <>{t('kiosk.enroll.failed')}</>;
  }
}

/**
 * The kiosk identity screen (spec point 2): the one-time enrollment code, save disabled while it is
 * empty; inside the kiosk app only a note (the app enrolls from its provisioning file).
 */
export const KioskEnroll = observer(function KioskEnroll({ store }: { store: KioskDeviceStore }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className="pp-kiosk-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('kiosk.enroll.title')}</h2>
      {store.revoked && (
        <p role="alert" className="pp-kiosk-alert">
          {t('kiosk.enroll.revoked')}
        </p>
      )}
      {store.inApp ? <p>{t('kiosk.enroll.inApp')}</p> : <EnrollForm store={store} />}
    </section>
  );
});

/** The code field: a kiosk in a plain browser enrolls here with the code from the staff kiosk page. */
const EnrollForm = observer(function EnrollForm({ store }: { store: KioskDeviceStore }) {
  const { t } = useTranslation();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const problem = store.problem ?? (store.codeTouched && store.code.trim() !== '' && !store.codeValid ? 'format' : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void store.enroll();
  };
  return (
    <>
      <p>{t('kiosk.enroll.intro')}</p>
      <form onSubmit={submit} noValidate>
        <label htmlFor={fieldId}>{t('kiosk.enroll.label')}</label>
        <input
          id={fieldId}
          className="pp-kiosk-input pp-kiosk-code"
          value={store.code}
          required
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={9}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => store.setCode(event.target.value)}
          onBlur={() => store.touchCode()}
        />
        <p id={hintId} className="pp-kiosk-hint">
          {t('kiosk.enroll.hint')}
        </p>
        {problem && (
          <p id={errorId} role="alert" className="pp-kiosk-error">
            <ProblemText problem={problem} />
          </p>
        )}
        <Button type="submit" block disabled={store.code.trim() === '' || store.enrolling}>
          {store.enrolling ? t('kiosk.enroll.saving') : t('kiosk.enroll.save')}
        </Button>
      </form>
    </>
  );
});
