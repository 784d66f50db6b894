import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { PortalLink } from '../../components/portal-link';
import { Page } from '../../components/page';
import { StaffSignInNotice } from '../../components/staff-sign-in-action';
import { useStaffTexts } from '../../i18n/staff-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { adminPanelAddress } from '../../shell/admin-panel';
import { staffToolName, staffToolPurpose, staffToolsFor } from '../../shell/staff-tools';
import { useStores } from '../../stores/use-stores';
import './staff-home.css';

/**
 * /staff: a signed-in person's start page (docs/rules/staff-access.md#staff-home), the tools
 * their roles allow as the account menu lists them, each with what it is for. Someone not signed
 * in is asked to sign in; a portal without staff sign-in says so.
 */
export const StaffHomePage = observer(function StaffHomePage() {
  const { staff, config, ui, i18n } = useStores();
  const { t } = useTranslation();
  const ready = useStaffTexts(i18n.i18n, i18n.locale);
  if (!ready) return <LoadingOverlay />;

  const user = staff.user;
  if (user === null) {
    return (
      <Page title={t('staff.home.title')} className="pp-staff-home">
        {staff.busy ? (
          <p role="status">{t('staff.home.checking')}</p>
        ) : staff.settings === null ? (
          <p className="pp-notice">{t('staff.home.notConfigured')}</p>
        ) : (
          <StaffSignInNotice
            tone="neutral"
            text={t('staff.home.signInNeeded')}
            label={t('staff.home.signIn')}
            onSignedIn={() => undefined}
          />
        )}
      </Page>
    );
  }

  const tools = staffToolsFor({
    roles: user.roles,
    // The navigation's hooks are not imported here: the page stays a chunk of its own (bench:web).
    adminPanel: adminPanelAddress(
      {
        enabled: config.app.showLinkToAdminPanel,
        kiosk: ui.kiosk,
        login: config.app.navigation.login,
        domainAdmin: config.radiology.domainAdmin,
      },
      (path) => path,
    ),
    referrerFeedbackEnabled: config.app.referrerReportQualityFeedbackEnabled,
  });
  return (
    <Page title={t('staff.home.title')} className="pp-staff-home">
      <p>{t('staff.home.signedInAs', { name: user.username })}</p>
      {tools.length === 0 ? (
        <p className="pp-notice">{t('staff.home.noTools')}</p>
      ) : (
        <ul className="pp-staff-tools" aria-label={t('staff.home.toolsLabel')}>
          {tools.map((tool) => (
            <li key={tool.id} className="pp-staff-tool" data-tool={tool.id}>
              <PortalLink href={tool.href} className="pp-staff-tool-link">
                {staffToolName(t, tool.id)}
              </PortalLink>
              <p>{staffToolPurpose(t, tool.id)}</p>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
});
