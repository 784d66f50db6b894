import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/use-stores';
import { CloseIcon } from '../components/icons';
import { SafeHtml } from '../components/safe-html';
import { useEffect, useState, type CSSProperties } from 'react';
import './banner.css';

/**
 * The provider's position (docs/rules/shell.md#banner): whitelisted declarations as a style object,
 * never raw CSS. The served page's style element already places the banner the same way (first
 * paint), so the parser loads only when a position is configured, off the booking home's entry chunk.
 */
function useBannerPosition(css: string | null): CSSProperties | undefined {
  const [position, setPosition] = useState<{ css: string; style: CSSProperties } | null>(null);
  useEffect(() => {
    if (css === null) return;
    let live = true;
    void import('@contract/shell/banner-position').then(({ bannerPositionOf, bannerPositionStyle }) => {
      if (live) setPosition({ css, style: bannerPositionStyle(bannerPositionOf(css)) });
    });
    return () => {
      live = false;
    };
  }, [css]);
  return position !== null && position.css === css ? position.style : undefined;
}

/** The provider's announcement above every page (docs/rules/shell.md#banner; stacking order 1500 in shell.css). */
export const Banner = observer(function Banner() {
  const { config, ui } = useStores();
  const { t } = useTranslation();
  const { bannerEnabled, bannerHtml } = config.app;
  const position = useBannerPosition(config.radiology.bannerPositionCss);
  if (!bannerEnabled || !bannerHtml || ui.bannerClosed) return null;
  return (
    <section className="pp-banner" aria-label={t('banner.label')} style={position}>
      <SafeHtml html={bannerHtml} className="pp-banner-content" />
      {config.radiology.closeBanner && (
        <button type="button" className="pp-icon-button pp-banner-close" aria-label={t('banner.close')} onClick={() => ui.closeBanner()}>
          <CloseIcon />
        </button>
      )}
    </section>
  );
});
