import { lazy } from 'react';

// The signed-in staff member's menu and the sign-in notice load only once someone signs in
// (shell/staff-user-menu.tsx), never with the booking home.
const staffNav = () => import('./staff-user-menu');
export const StaffUserMenu = lazy(() => staffNav().then((m) => ({ default: m.StaffUserMenu })));
export const StaffSignInNotice = lazy(() => staffNav().then((m) => ({ default: m.StaffSignInNotice })));
export const StaffToolItems = lazy(() => staffNav().then((m) => ({ default: m.StaffToolItems })));
