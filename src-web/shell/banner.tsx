import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/use-stores';
import { CloseIcon } from '../components/icons';
import { SafeHtml } from '../components/safe-html';
import './banner.css';

/** The provider's announcement above every page (docs/rules/shell.md#banner; stacking order 1500 in shell.css). */
export const Banner = observer(function Banner() {
  const { config, ui } = useStores();
  const { t } = useTranslation();
  const { bannerEnabled, bannerHtml } = config.app;
  if (!bannerEnabled || !bannerHtml || ui.bannerClosed) return null;
  return (
    <section className="pp-banner" aria-label={t('banner.label')}>
      <SafeHtml html={bannerHtml} className="pp-banner-content" />
      {config.radiology.closeBanner && (
        <button type="button" className="pp-icon-button pp-banner-close" aria-label={t('banner.close')} onClick={() => ui.closeBanner()}>
          <CloseIcon />
        </button>
      )}
    </section>
  );
});
