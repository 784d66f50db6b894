import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { applicationImageUrl } from '../api/assets-api';
import { headerImageFor, pageType } from '@contract/shell/page-type';
import { useStores } from '../stores/use-stores';

/** The provider's header picture for the page type (decorative, so alt=""). */
export const HeaderImage = observer(function HeaderImage() {
  const { ui } = useStores();
  const { pathname } = useLocation();
  const src = applicationImageUrl(headerImageFor(pageType(pathname), ui.device));
  // A provider without this image answers 404; the header then simply has no picture.
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === src) return null;
  return (
    <div className="pp-header-image">
      <img src={src} alt="" onError={() => setFailed(src)} />
    </div>
  );
});
