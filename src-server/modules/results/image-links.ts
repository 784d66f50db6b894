import { REFERRER_IMAGE_LINK, REFERRER_IMAGE_LINK_TTL_MS } from '@contract/api/image-viewer';
import type { SignedLinkFailure, SignedLinks } from '../../platform/signed-links';
import { PATIENT_IMAGE_LINK } from './patient-results';

/**
 * The two holders of an imsec (docs/rules/results.md#image-viewer, docs/rules/referrers.md): the
 * patient (a 15-minute link from the result page) and the referring doctor (a 30-day link from
 * the report-ready mail or the referrer's list). Both name one released report by its id; the
 * audience says whose link it is, so each side's pages accept only their own.
 */

export type ImageLinkHolder = 'patient' | 'referrer';

export type CheckedImageLink =
  { ok: true; holder: ImageLinkHolder; reportId: string; tokenId: string } | { ok: false; reason: SignedLinkFailure };

const AUDIENCES = { patient: PATIENT_IMAGE_LINK, referrer: REFERRER_IMAGE_LINK } as const;

/**
 * Checks an imsec for any of the holders given (MAC, expiry, purpose, then audience). A link of
 * another audience fails as wrong_audience; an expired one as expired, whoever holds it.
 */
export function checkImageLink(links: SignedLinks, input: string, holders: readonly ImageLinkHolder[]): CheckedImageLink {
  let failure: SignedLinkFailure = 'wrong_audience';
  for (const holder of holders) {
    const verified = links.verify(input, AUDIENCES[holder]);
    if (verified.ok) return { ok: true, holder, reportId: verified.subject, tokenId: verified.tokenId };
    failure = verified.reason;
    // Only a wrong audience can pass as another holder's link; any other failure is final.
    if (verified.reason !== 'wrong_audience') break;
  }
  return { ok: false, reason: failure };
}

/** A referring doctor's imsec for a report. */
export function mintReferrerImageLink(links: SignedLinks, reportId: string): string {
  return links.sign({ ...REFERRER_IMAGE_LINK, subject: reportId, ttlMs: REFERRER_IMAGE_LINK_TTL_MS });
}
