import { observer } from 'mobx-react-lite';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { PortalLink } from '../components/portal-link';
import type { StaffRole } from '@contract/api/staff-access';
import { useStaffTexts } from '../i18n/staff-texts';
import type { StaffSignInProblem } from '../stores/staff-store';
import { useStores } from '../stores/use-stores';
import { useMenuDisclosure } from './menu-disclosure';
import { hasStaffHome, STAFF_HOME_PATH, staffToolName, staffToolsFor, type StaffTool, type StaffToolId } from './staff-tools';
import './staff-user-menu.css';

const REFERRER_HEADER_TOOLS: readonly StaffToolId[] = ['referrerReports', 'referrerFaq'];

/** The short names the header gives a referrer's two pages. */
function staffHeaderName(t: TFunction, id: StaffToolId): string {
  return id === 'referrerFaq' ? t('staff.header.faq') : t('staff.header.reports');
}

/** The account menu's tools: the staff home first for those who have one, then each tool. */
export function menuTools(roles: readonly StaffRole[], adminPanel: string | null, referrerFeedbackEnabled: boolean): StaffTool[] {
  const tools = staffToolsFor({ roles, adminPanel, referrerFeedbackEnabled });
  return hasStaffHome(roles) ? [{ id: 'staffHome', href: STAFF_HOME_PATH, external: false }, ...tools] : tools;
}

/** One literal t() per problem, so the catalogue check sees every key. */
export function problemText(t: TFunction, problem: StaffSignInProblem): string {
  switch (problem) {
    case 'cancelled':
      return t('staff.problem.cancelled');
    case 'refused':
      return t('staff.problem.refused');
    case 'no_role':
      return t('staff.problem.no_role');
    case 'unavailable':
      return t('staff.problem.unavailable');
  }
}

function useTextsReady(): boolean {
  const { i18n } = useStores();
  return useStaffTexts(i18n.i18n, i18n.locale);
}

/** Why the sign-in from the navigation did not work (docs/identity.md#the-browser). */
export const StaffSignInNotice = observer(function StaffSignInNotice() {
  const { staff } = useStores();
  const { t } = useTranslation();
  const ready = useTextsReady();
  if (!ready || staff.problem === null) return null;
  return (
    <p className="pp-staff-notice" role="alert">
      {problemText(t, staff.problem)}
    </p>
  );
});

export interface StaffUserMenuProps {
  /** The admin panel's address; null hides the link (showLinkToAdminPanel off, kiosk mode); only admins see it. */
  adminPanel: string | null;
}

/**
 * The signed-in user in the desktop navigation (docs/identity.md#the-browser): the organisation, or the current
 * doctor's name when there is none, and the username as a disclosure button with the tools the
 * roles allow (shell/staff-tools.ts), the admin link for admins, and logout.
 */
export const StaffUserMenu = observer(function StaffUserMenu({ adminPanel }: StaffUserMenuProps) {
  const { staff, config } = useStores();
  const { t } = useTranslation();
  const ready = useTextsReady();
  const [open, setOpen] = useState(false);
  const { menuId, onKeyDown, buttonProps } = useMenuDisclosure(open, () => setOpen(false));
  const containerRef = useRef<HTMLDivElement>(null);

  // A click elsewhere closes the menu, as a menu does.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const user = staff.user;
  if (!ready || user === null) return null;
  const all = menuTools(user.roles, adminPanel, config.app.referrerReportQualityFeedbackEnabled);
  // A referrer's two pages sit in the header itself, one click away; the menu holds the rest.
  const headerTools = all.filter((tool) => REFERRER_HEADER_TOOLS.includes(tool.id));
  const tools = all.filter((tool) => !REFERRER_HEADER_TOOLS.includes(tool.id));
  const doctor = user.currentDoctor === null ? null : `${user.currentDoctor.firstName} ${user.currentDoctor.lastName}`;
  const affiliation = user.organization ?? doctor;

  return (
    <div className="pp-staff-user" ref={containerRef} onKeyDown={onKeyDown}>
      {headerTools.map((tool) => (
        <PortalLink key={tool.id} href={tool.href} className="pp-staff-header-link">
          {staffHeaderName(t, tool.id)}
        </PortalLink>
      ))}
      {affiliation && <span className="pp-staff-affiliation">{affiliation}</span>}
      <button {...buttonProps} aria-label={t('staff.menu.button', { name: user.username })} onClick={() => setOpen(!open)}>
        {user.username}
      </button>
      <ul id={menuId} className="pp-staff-menu" hidden={!open}>
        {tools.map((tool) => (
          <li key={tool.id} data-tool={tool.id}>
            <PortalLink href={tool.href} onClick={() => setOpen(false)}>
              {staffToolName(t, tool.id)}
            </PortalLink>
          </li>
        ))}
        <li>
          <button type="button" disabled={staff.busy} onClick={() => void staff.signOut().finally(() => setOpen(false))}>
            {staff.busy ? t('staff.menu.loggingOut') : t('staff.menu.logout')}
          </button>
        </li>
      </ul>
    </div>
  );
});

/** The same tools as items of the mobile menu (which has no account button of its own). */
export const StaffToolItems = observer(function StaffToolItems({
  adminPanel,
  onNavigate,
}: StaffUserMenuProps & { onNavigate: () => void }) {
  const { staff, config } = useStores();
  const { t } = useTranslation();
  const ready = useTextsReady();
  if (!ready || staff.user === null) return null;
  return menuTools(staff.user.roles, adminPanel, config.app.referrerReportQualityFeedbackEnabled).map((tool) => (
    <li key={tool.id} data-tool={tool.id}>
      <PortalLink href={tool.href} onClick={onNavigate}>
        {staffToolName(t, tool.id)}
      </PortalLink>
    </li>
  ));
});
