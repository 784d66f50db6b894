import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { applicationImageUrl } from '../api/assets-api';
import { PortalLink } from '../components/portal-link';
import { headerImageFor, pageType } from '@contract/shell/page-type';
import { safeRedirectUrl } from '../platform/safe-url';
import { useStores } from '../stores/use-stores';
import { usePortalHref } from './embedded';

/**
 * The provider's header picture for the page type (decorative, so alt=""). On confirmation pages it
 * links to the provider's `confirmationHeaderUrl` when one is set (docs/rules/shell.md#header-image):
 * then it is a link, named by the provider.
 */
export const HeaderImage = observer(function HeaderImage() {
  const { ui, config } = useStores();
  const { t } = useTranslation();
  const href = usePortalHref();
  const { pathname } = useLocation();
  const type = pageType(pathname);
  const src = applicationImageUrl(headerImageFor(type, ui.device));
  // A provider without this image answers 404; the header then simply has no picture.
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === src) return null;
  // Only a site path or an http(s) URL is followed (LinkSchema allows both).
  const target = type === 'confirmation' ? safeRedirectUrl(config.radiology.confirmationHeaderUrl) : null;
  const image = (alt: string) => <img src={src} alt={alt} onError={() => setFailed(src)} />;
  return (
    <div className="pp-header-image">
      {target === null ? (
        image('')
      ) : (
        <PortalLink href={href(target)} className="pp-header-image-link">
          {image(t('nav.confirmationHeader', { name: config.radiology.name }))}
        </PortalLink>
      )}
    </div>
  );
});
