import { bookingCodePayload } from '@contract/booking-code';
import type { MailAttachment } from '../../platform/mailer';

/**
 * The booking code in the confirmation e-mail (docs/rules/kiosk.md#identify-by-scanning): a QR
 * code of the appointment link only (src-contract/booking-code.ts), as a PNG attached inline and
 * shown by Content-ID, so mail programs that block remote images still show it.
 */

export const BOOKING_CODE_CID = 'booking-code@patient-portal';
export const BOOKING_CODE_FILENAME = 'booking-code.png';
/** Pixels; large enough for a kiosk camera at arm's length, small enough for a phone's mail. */
export const BOOKING_CODE_PIXELS = 240;

/** The same options everywhere the PNG is made, so a test can make the expected one. */
export const BOOKING_CODE_PNG_OPTIONS = {
  type: 'png',
  errorCorrectionLevel: 'M',
  margin: 2,
  width: BOOKING_CODE_PIXELS,
} as const;

export async function bookingCodeAttachment(publicUrl: string, bookingKey: string): Promise<MailAttachment> {
  // qrcode loads with the first code drawn, not at start.
  const { default: QRCode } = await import('qrcode');
  const png = await QRCode.toBuffer(bookingCodePayload(publicUrl, bookingKey), BOOKING_CODE_PNG_OPTIONS);
  return {
    filename: BOOKING_CODE_FILENAME,
    contentType: 'image/png',
    content: png.toString('base64'),
    encoding: 'base64',
    cid: BOOKING_CODE_CID,
  };
}
