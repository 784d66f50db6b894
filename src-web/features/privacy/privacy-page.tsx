import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { safeRedirectUrl } from '../../platform/safe-url';
import { useStores } from '../../stores/use-stores';

/** Privacy: a link to the provider's privacy policy. */
export const PrivacyPage = observer(function PrivacyPage() {
  const { config } = useStores();
  const { t } = useTranslation();
  const { name, privacyPolicyUrl } = config.radiology;
  const url = safeRedirectUrl(privacyPolicyUrl);
  return (
    <Page title={t('privacy.title')} className="pp-privacy">
      {url ? (
        <>
          <p>{t('privacy.text', { name })}</p>
          <p>
            <a href={url} rel="noopener">
              {t('privacy.link')}
            </a>
          </p>
        </>
      ) : (
        <p>{t('privacy.unavailable')}</p>
      )}
    </Page>
  );
});
