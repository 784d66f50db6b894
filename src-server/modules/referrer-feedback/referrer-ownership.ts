import type { StaffSession } from '../staff-access/public';

/**
 * The provider number of a signed-in referrer: a report is theirs when its
 * referrer_provider_number equals it (docs/rules/referrers.md#report-quality-feedback).
 *
 * The staff session does not carry a provider number yet: migration 0023 (branch
 * referrer-list) adds staff_session.provider_number. Until that is merged this answers null, so
 * the accession path finds no report of the session's and refuses every one (404): it fails
 * closed. After the merge, answer `session.providerNumber` here; nothing else changes.
 */
export function referrerProviderNumber(session: StaffSession): string | null {
  const candidate: unknown = (session as Partial<Record<'providerNumber', unknown>>).providerNumber;
  return typeof candidate === 'string' && candidate !== '' ? candidate : null;
}
