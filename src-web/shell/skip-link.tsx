import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

export const MAIN_CONTENT_ID = 'main-content';

/** First focusable element: jumps keyboard users past the banner and navigation (WCAG 2.4.1). */
export function SkipLink() {
  const { t } = useTranslation();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // Focus directly instead of changing the URL hash, which the router would treat as navigation.
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
  };
  return (
    <a className="pp-skip-link" href={`#${MAIN_CONTENT_ID}`} onClick={onClick}>
      {t('app.skipToContent')}
    </a>
  );
}
