import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { bookingCodePayload, groupedBookingKey } from '@contract/booking-code';
import { useBookingCodeTexts } from '../../i18n/booking-code-texts';
import { useStores } from '../../stores/use-stores';
import './booking-code.css';

/** Quiet zone around the code, in modules: scanners need a light border to find it. */
const QUIET_MODULES = 2;

/**
 * The QR code as one SVG path, built from the code's modules (never an SVG string set as HTML).
 * @returns the path and the side of the square in modules, quiet zone included.
 */
export function qrPath(payload: string): { d: string; side: number } {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row += 1)
    for (let column = 0; column < modules.size; column += 1)
      if (modules.get(row, column)) parts.push(`M${column + QUIET_MODULES} ${row + QUIET_MODULES}h1v1h-1z`);
  return { d: parts.join(''), side: modules.size + 2 * QUIET_MODULES };
}

/**
 * The booking code (docs/rules/kiosk.md#identify-by-scanning): a QR code of the appointment link
 * on this portal, the key in text grouped for reading, and how to use it at the kiosk. The code
 * carries no personal data; without the date of birth and the one-time code it opens nothing.
 */
export function BookingCodeBox({ bookingKey }: { bookingKey: string }) {
  const root = useStores();
  const ready = useBookingCodeTexts(root.i18n.i18n, root.i18n.locale);
  const { t } = useTranslation();
  const id = useId();
  const qr = useMemo(() => qrPath(bookingCodePayload(window.location.origin, bookingKey)), [bookingKey]);
  if (!ready) return null;
  return (
    <section className="pp-booking-code" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('bookingCode.heading')}</h3>
      <svg
        className="pp-booking-code-qr"
        role="img"
        aria-label={t('bookingCode.qrLabel')}
        viewBox={`0 0 ${qr.side} ${qr.side}`}
        width="200"
        height="200"
        shapeRendering="crispEdges"
      >
        <rect width={qr.side} height={qr.side} fill="#ffffff" />
        <path d={qr.d} fill="#000000" />
      </svg>
      <p className="pp-booking-code-text">
        {t('bookingCode.codeLabel')} <code translate="no">{groupedBookingKey(bookingKey)}</code>
      </p>
      <p>{t('bookingCode.caption')}</p>
      <p className="pp-muted">{t('bookingCode.private')}</p>
    </section>
  );
}
