import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { SafeHtml } from '../../components/safe-html';
import { safeRedirectUrl } from '../../platform/safe-url';
import { useStores } from '../../stores/use-stores';

/** About: heading, the provider's name and its about text; or a link to its own about page. */
export const AboutPage = observer(function AboutPage() {
  const { config } = useStores();
  const { t } = useTranslation();
  const { name, about, aboutUrl } = config.radiology;
  const external = safeRedirectUrl(aboutUrl);
  return (
    <Page title={t('about.title')} className="pp-about">
      <h2>{name}</h2>
      {external ? (
        <p>
          <a href={external} rel="noopener">
            {t('about.linkOut', { name })}
          </a>
        </p>
      ) : (
        <SafeHtml html={about} className="pp-rich-text" />
      )}
    </Page>
  );
});
