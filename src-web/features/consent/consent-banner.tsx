import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { Link } from 'react-router-dom';
import { paths } from '../../paths';
import { useStores } from '../../stores/use-stores';
import type { ConsentChoice } from './consent-store';
import './consent.css';

interface ConsentBannerProps {
  onChoose: (choice: ConsentChoice) => void;
  /** Opened from "Cookie settings": focus moves to it so keyboard and screen reader users land there. */
  focusOnOpen: boolean;
}

/**
 * The analytics question (docs/rules/analytics.md#consent): a labelled region in the page's flow above
 * the banner, so it never covers the page's primary action (the booking's sticky Continue row on a
 * phone). Both answers are the same kind of button, equally prominent; the privacy page is one link away.
 */
export function ConsentBanner({ onChoose, focusOnOpen }: ConsentBannerProps) {
  const { t } = useTranslation();
  // The privacy link as the footer's (app.navigation.privacy when it is a site path or http(s) URL, else
  // our page), checked here without the shell's link helpers: importing those would split the booking
  // home's entry chunk (docs/web.md#budgets).
  const configured = useStores().config.app.navigation.privacy ?? '';
  const external = /^https?:\/\/[^\s]+$/i.test(configured);
  const privacy = external || /^\/(?![/\\])\S*$/.test(configured) ? configured : paths.privacy();
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (focusOnOpen) heading.current?.focus();
  }, [focusOnOpen]);

  return (
    <section className="pp-consent" aria-labelledby={titleId}>
      <div className="pp-consent-inner">
        <h2 id={titleId} ref={heading} tabIndex={-1} className="pp-consent-title">
          {t('consent.title')}
        </h2>
        <p className="pp-consent-text">
          {t('consent.text')}{' '}
          {external ? (
            <a href={privacy} rel="noopener">
              {t('consent.privacy')}
            </a>
          ) : (
            <Link to={privacy}>{t('consent.privacy')}</Link>
          )}
        </p>
        <div className="pp-consent-actions">
          <Button variant="secondary" onClick={() => onChoose('granted')}>
            {t('consent.allow')}
          </Button>
          <Button variant="secondary" onClick={() => onChoose('denied')}>
            {t('consent.necessary')}
          </Button>
        </div>
      </div>
    </section>
  );
}
