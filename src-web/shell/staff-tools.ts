import type { TFunction } from 'i18next';
import type { StaffRole } from '@contract/api/staff-access';
import { hrefOf, paths, ROUTE } from '../paths';

/**
 * The tools a signed-in person may open, by role (docs/rules/staff-access.md#staff-home): the
 * account menu, the mobile menu and the /staff page list exactly these, so nobody is shown a tool
 * the server would refuse them. Each tool's roles are the roles its API routes admit
 * (each route's declared access, src-server/platform/route-access.ts).
 */
export type StaffToolId =
  | 'staffHome'
  | 'bookForPatient'
  | 'callbacks'
  | 'appointments'
  | 'bookingRequests'
  | 'screeningReviews'
  | 'emailPreview'
  | 'referrerFeedback'
  | 'kiosks'
  | 'referrerReports'
  | 'referrerFaq'
  | 'adminPanel';

export interface StaffTool {
  id: StaffToolId;
  href: string;
  /** The address is another site's (the admin panel): it opens as an ordinary external link. */
  external: boolean;
}

export interface StaffToolContext {
  roles: readonly StaffRole[];
  /** The admin panel's address, or null where it is not configured or hidden (kiosk mode). */
  adminPanel: string | null;
  /** Report-quality feedback is switched on for this provider (application config). */
  referrerFeedbackEnabled: boolean;
}

// The staff pages' addresses, from the route table (kept out of `paths`, which the booking home carries).
export const STAFF_HOME_PATH = hrefOf(ROUTE.staffHome);

const STAFF: readonly StaffRole[] = ['staff', 'admin'];
const KIOSK_ADMINS: readonly StaffRole[] = ['kioskAdmin', 'admin'];

const has = (roles: readonly StaffRole[], wanted: readonly StaffRole[]): boolean => roles.some((role) => wanted.includes(role));

/** The tools for these roles, in the order the menus show them. */
export function staffToolsFor(context: StaffToolContext): StaffTool[] {
  const { roles } = context;
  const tools: StaffTool[] = [];
  const add = (id: StaffToolId, href: string, external = false) => tools.push({ id, href, external });
  if (has(roles, STAFF)) {
    add('bookForPatient', `${paths.home()}?staffBooking=true`);
    add('callbacks', hrefOf(ROUTE.staffCallbacks));
    add('appointments', hrefOf(ROUTE.staffAppointments));
    add('bookingRequests', hrefOf(ROUTE.staffBookingRequests));
    add('screeningReviews', hrefOf(ROUTE.staffScreeningReviews));
    add('emailPreview', hrefOf(ROUTE.previewEmail));
    if (context.referrerFeedbackEnabled) add('referrerFeedback', hrefOf(ROUTE.staffReferrerFeedback));
  }
  if (has(roles, KIOSK_ADMINS)) add('kiosks', paths.staffKiosks());
  if (roles.includes('referrer')) {
    add('referrerReports', hrefOf(ROUTE.referrerAccess));
    if (context.referrerFeedbackEnabled) add('referrerFaq', paths.referrerReportFeedbackFaq());
  }
  if (roles.includes('admin') && context.adminPanel !== null) add('adminPanel', context.adminPanel, true);
  return tools;
}

/** The staff home is offered to anyone with a tool beyond a referrer's own two. */
export function hasStaffHome(roles: readonly StaffRole[]): boolean {
  return has(roles, [...STAFF, ...KIOSK_ADMINS]);
}

/** Each tool's name and purpose: one literal t() each, so the catalogue check sees every key. */
const TOOL_TEXTS: Record<StaffToolId, { name: (t: TFunction) => string; purpose: (t: TFunction) => string }> = {
  staffHome: { name: (t) => t('staff.tools.staffHome.name'), purpose: (t) => t('staff.tools.staffHome.purpose') },
  bookForPatient: { name: (t) => t('staff.tools.bookForPatient.name'), purpose: (t) => t('staff.tools.bookForPatient.purpose') },
  callbacks: { name: (t) => t('staff.tools.callbacks.name'), purpose: (t) => t('staff.tools.callbacks.purpose') },
  appointments: { name: (t) => t('staff.tools.appointments.name'), purpose: (t) => t('staff.tools.appointments.purpose') },
  bookingRequests: { name: (t) => t('staff.tools.bookingRequests.name'), purpose: (t) => t('staff.tools.bookingRequests.purpose') },
  screeningReviews: { name: (t) => t('staff.tools.screeningReviews.name'), purpose: (t) => t('staff.tools.screeningReviews.purpose') },
  emailPreview: { name: (t) => t('staff.tools.emailPreview.name'), purpose: (t) => t('staff.tools.emailPreview.purpose') },
  referrerFeedback: { name: (t) => t('staff.tools.referrerFeedback.name'), purpose: (t) => t('staff.tools.referrerFeedback.purpose') },
  kiosks: { name: (t) => t('staff.tools.kiosks.name'), purpose: (t) => t('staff.tools.kiosks.purpose') },
  referrerReports: { name: (t) => t('staff.tools.referrerReports.name'), purpose: (t) => t('staff.tools.referrerReports.purpose') },
  referrerFaq: { name: (t) => t('staff.tools.referrerFaq.name'), purpose: (t) => t('staff.tools.referrerFaq.purpose') },
  adminPanel: { name: (t) => t('staff.tools.adminPanel.name'), purpose: (t) => t('staff.tools.adminPanel.purpose') },
};

/** The tool's name (the menus, the /staff page). */
export function staffToolName(t: TFunction, id: StaffToolId): string {
  return TOOL_TEXTS[id].name(t);
}

/** What the tool is for, in a sentence (the /staff page). */
export function staffToolPurpose(t: TFunction, id: StaffToolId): string {
  return TOOL_TEXTS[id].purpose(t);
}
