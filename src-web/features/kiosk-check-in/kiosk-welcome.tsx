import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import type { IdentityProblem, KioskCheckInStore } from './kiosk-check-in-store';
import { KioskCard, KioskForm } from './kiosk-card';
import { DateOfBirthFields } from './kiosk-date-of-birth';

function IdentityProblemText({ problem }: { problem: IdentityProblem }) {
  const { t } = useTranslation();
  switch (problem.kind) {
    case 'notFound':
      return <>{t('kiosk.identity.notFound')}</>;
    case 'tooMany':
      // The server's own words (ask at the front desk), in English only.
      return <>{problem.message}</>;
    case 'failed':
      return <>{t('kiosk.identity.failed')}</>;
    case 'disabled':
      switch (problem.reason) {
        case 'ALREADY_CHECKED_IN':
          return <>{t('kiosk.identity.alreadyCheckedIn')}</>;
        case 'NOT_YET_OPEN':
          return <>{t('kiosk.identity.notYetOpen')}</>;
        case 'CHECK_IN_DISABLED':
          return <>{t('kiosk.identity.disabled')}</>;
      }
  }
}

/** Why the identity check did not lead on, said as an alert under the form (nothing when it did). */
export const IdentityProblemAlert = observer(function IdentityProblemAlert({ store }: { store: KioskCheckInStore }) {
  if (!store.identityProblem) return null;
  return (
    <p role="alert" className="pp-kiosk-alert">
      <IdentityProblemText problem={store.identityProblem} />
    </p>
  );
});

/** The welcome screen: the check-in form (last name, date of birth as day, month, year). */
export const KioskWelcome = observer(function KioskWelcome({ store, onStarted }: { store: KioskCheckInStore; onStarted: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const lastNameInvalid = store.identityTouched && store.lastNameMissing;
  const submit = async () => {
    if (await store.submitIdentity()) onStarted();
  };
  return (
    <KioskCard heading={t('kiosk.welcome.heading')} intro={t('kiosk.welcome.intro')}>
      <KioskForm onSubmit={submit}>
        <label htmlFor={`${id}-last`}>{t('kiosk.welcome.lastName')}</label>
        <input
          id={`${id}-last`}
          className="pp-kiosk-input"
          autoComplete="family-name"
          autoCapitalize="words"
          spellCheck={false}
          maxLength={100}
          value={store.lastName}
          required
          aria-invalid={lastNameInvalid}
          aria-describedby={lastNameInvalid ? `${id}-last-error` : undefined}
          onChange={(event) => store.setLastName(event.target.value)}
        />
        {lastNameInvalid && (
          <p id={`${id}-last-error`} className="pp-kiosk-error">
            {t('kiosk.welcome.lastNameMissing')}
          </p>
        )}
        <DateOfBirthFields store={store} />
        <IdentityProblemAlert store={store} />
        <Button type="submit" block disabled={store.looking}>
          {store.looking ? t('kiosk.welcome.looking') : t('kiosk.welcome.submit')}
        </Button>
      </KioskForm>
    </KioskCard>
  );
});
