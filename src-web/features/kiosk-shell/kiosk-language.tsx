import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SupportedLocale } from '@contract/api/config';
import { Button } from '../../components/button';
import { resolveLocale } from '../../i18n/locale';
import { useStores } from '../../stores/use-stores';

/**
 * The kiosk's language buttons: English (the provider's English) and Macedonian, the languages the
 * kiosk texts exist in. The choice lasts for this patient: Home loads the kiosk afresh in the
 * provider's language.
 */
export const KioskLanguage = observer(function KioskLanguage() {
  const { t } = useTranslation();
  const root = useStores();
  const id = useId();
  const configured = resolveLocale(root.config.app.locale, () => undefined);
  const english: SupportedLocale = configured.startsWith('en') ? configured : 'en';
  const current = root.i18n.locale;
  const choose = (locale: SupportedLocale) => void root.i18n.setLocale(locale);
  return (
    <div role="group" aria-labelledby={id} className="pp-kiosk-language">
      <span id={id} className="pp-visually-hidden">
        {t('kiosk.language')}
      </span>
      <Button
        variant={current.startsWith('en') ? 'primary' : 'secondary'}
        aria-pressed={current.startsWith('en')}

        onClick={() => choose(english)}
      >
        {t('kiosk.languages.en')}
      </Button>
      <Button variant={current === 'mk' ? 'primary' : 'secondary'} aria-pressed={current === 'mk'} lang="mk" onClick={() => choose('mk')}>
        {t('kiosk.languages.mk')}
      </Button>
    </div>
  );
});
