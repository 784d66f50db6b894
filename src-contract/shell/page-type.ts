import type { ApplicationImage } from '../api/config';
import type { Device } from './device';

export type PageType = 'confirmation' | 'check-in' | 'default';

/** The first path segment decides (docs/rules/shell.md#page-type); these are the confirmation-style pages. */
const CONFIRMATION_SEGMENTS = ['appointments', 'booking-requests', 'unsubscribe', 'authentication', 'a'];
/** Segments that follow a clinic path ({clinic-path}/appointments/{bookingKey}, …). */
const CLINIC_CHILD_SEGMENTS = ['appointments', 'booking-requests'];

/** Path segments without the /iframe prefix, so embedded pages are typed like their top-level twin. */
export function pathSegments(pathname: string): string[] {
  const segments = pathname.split('/').filter(Boolean);
  return segments[0] === 'iframe' ? segments.slice(1) : segments;
}

/**
 * The page type from the first path segment. Clinic-path routes put the clinic first,
 * so for them the segment after it decides (they are the same confirmation pages).
 */
export function pageType(pathname: string): PageType {
  const [first = '', second = ''] = pathSegments(pathname);
  if (first === 'check-in') return 'check-in';
  if (CONFIRMATION_SEGMENTS.includes(first)) return 'confirmation';
  if (CLINIC_CHILD_SEGMENTS.includes(second) && first !== 'advanced-booking') return 'confirmation';
  return 'default';
}

/** The header image for a page type and device: confirmation, check-in, tablet or default. */
export function headerImageFor(type: PageType, device: Device): ApplicationImage {
  if (type === 'confirmation') return 'confirmation_header';
  if (type === 'check-in') return 'check_in_header';
  if (device === 'tablet') return 'header_tablet';
  return 'header';
}

/** Advanced booking pages have no footer (docs/rules/shell.md#footer). */
export function isAdvancedBooking(pathname: string): boolean {
  return pathname.includes('advanced-booking');
}
