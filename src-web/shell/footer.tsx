import { observer } from 'mobx-react-lite';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { applicationImageUrl } from '../api/assets-api';
import { useStores } from '../stores/use-stores';
import { PortalLink } from '../components/portal-link';
import { useNavTargets } from './nav-targets';
import { SafeHtml } from '../components/safe-html';
import { VersionTooltip } from './version-tooltip';
import './footer.css';

/** One entry of the footer's link list. */
function FooterLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <li>
      <PortalLink href={href}>{children}</PortalLink>
    </li>
  );
}

/**
 * The footer (docs/rules/shell.md#footer): links, copyright with the long name and year, the version
 * with its hash when enabled, the branding logo; or the provider's custom footer instead.
 */
export const Footer = observer(function Footer({ openCookieSettings }: { openCookieSettings: (() => void) | null }) {
  const { config, ui } = useStores();
  const { t } = useTranslation();
  const targets = useNavTargets();
  // A provider without a branding logo answers 404; show nothing rather than a broken image.
  const [brandingFailed, setBrandingFailed] = useState(false);
  const { app, radiology } = config;

  if (radiology.showCustomHeaderAndFooter && radiology.customFooter) {
    return (
      <footer className="pp-footer pp-footer-custom">
        <SafeHtml html={radiology.customFooter} />
      </footer>
    );
  }

  return (
    <footer className="pp-footer">
      <nav aria-label={t('footer.linksLabel')}>
        <ul className="pp-footer-links">
          <FooterLink href={targets.home}>{t('footer.home')}</FooterLink>
          {targets.externalHome && (
            <FooterLink href={targets.externalHome}>{t('footer.externalHome', { name: radiology.name })}</FooterLink>
          )}
          <FooterLink href={targets.about}>{t('footer.about')}</FooterLink>
          <FooterLink href={targets.contact}>{t('footer.contact')}</FooterLink>
          <FooterLink href={targets.terms}>{t('footer.terms')}</FooterLink>
          <FooterLink href={targets.privacy}>{t('footer.privacy')}</FooterLink>
          {openCookieSettings && (
            <li>
              <button type="button" className="pp-footer-link-button" onClick={openCookieSettings}>
                {t('footer.cookieSettings')}
              </button>
            </li>
          )}
        </ul>
      </nav>
      <div className="pp-footer-meta">
        <p className="pp-copyright">{t('footer.copyright', { year: ui.currentYear, name: radiology.longName })}</p>
        {app.versionOnPatientPortalEnabled && (
          <VersionTooltip
            label={t('footer.version', { version: app.version })}
            detail={t('footer.versionDetail', { version: app.version, hash: app.versionHash })}
          />
        )}
        {radiology.showBrandingLogo && !brandingFailed && (
          <img
            className="pp-branding-logo"
            src={applicationImageUrl('branding_logo')}
            alt={t('footer.brandingLogo', { name: radiology.name })}
            onError={() => setBrandingFailed(true)}
          />
        )}
      </div>
    </footer>
  );
});
