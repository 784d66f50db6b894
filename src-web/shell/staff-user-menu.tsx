import { observer } from 'mobx-react-lite';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { PortalLink } from '../components/portal-link';
import { paths } from '../paths';
import { useStaffTexts } from '../i18n/staff-texts';
import type { StaffSignInProblem } from '../stores/staff-store';
import { useStores } from '../stores/use-stores';
import './staff-user-menu.css';

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

/** Why the sign-in from the navigation did not work (spec point 2, docs/identity.md#the-browser). */
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
  /** The admin panel's address; null hides the link (showLinkToAdminPanel off, kiosk mode). */
  adminPanel: string | null;
}

/**
 * The signed-in user in the desktop navigation (spec point 2): the organisation, or the current
 * doctor's name when there is none, and the username as a disclosure button with the admin link
 * and logout.
 */
export const StaffUserMenu = observer(function StaffUserMenu({ adminPanel }: StaffUserMenuProps) {
  const { staff } = useStores();
  const { t } = useTranslation();
  const ready = useTextsReady();
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
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
  const doctor = user.currentDoctor === null ? null : `${user.currentDoctor.firstName} ${user.currentDoctor.lastName}`;
  const affiliation = user.organization ?? doctor;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      setOpen(false);
      buttonRef.current?.focus();
    }
  };

  return (
    <div className="pp-staff-user" ref={containerRef} onKeyDown={onKeyDown}>
      {affiliation && <span className="pp-staff-affiliation">{affiliation}</span>}
      <button
        ref={buttonRef}
        type="button"
        className="pp-menu-button"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('staff.menu.button', { name: user.username })}
        onClick={() => setOpen(!open)}
      >
        {user.username}
      </button>
      <ul id={menuId} className="pp-staff-menu" hidden={!open}>
        {adminPanel && (
          <li>
            <PortalLink href={adminPanel} onClick={() => setOpen(false)}>
              {t('staff.menu.adminPanel')}
            </PortalLink>
          </li>
        )}
        {staff.hasAnyRole(['kioskAdmin', 'admin']) && (
          <li>
            <PortalLink href={paths.staffKiosks()} onClick={() => setOpen(false)}>
              {t('staff.menu.kiosks')}
            </PortalLink>
          </li>
        )}
        <li>
          <button type="button" disabled={staff.busy} onClick={() => void staff.signOut().finally(() => setOpen(false))}>
            {staff.busy ? t('staff.menu.loggingOut') : t('staff.menu.logout')}
          </button>
        </li>
      </ul>
    </div>
  );
});
