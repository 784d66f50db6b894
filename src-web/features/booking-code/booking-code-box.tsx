import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { bookingCodePayload, groupedBookingKey } from '@contract/booking-code';
import { QrCode } from '../../components/qr-code';
import { useBookingCodeTexts } from './booking-code-texts';
import { useStores } from '../../stores/use-stores';
import './booking-code.css';

/** CSS pixels: large enough for a kiosk camera at arm's length. */
export const BOOKING_CODE_SIZE = 200;

/**
 * The booking code (docs/rules/kiosk.md#identify-by-scanning): a QR code of the appointment link
 * on this portal (the shared QrCode: an SVG made with qrcode, named for screen readers), the key
 * in text grouped for reading, and how to use it at the kiosk. The code carries no personal
 * data; without the date of birth and the one-time code it opens nothing.
 */
export function BookingCodeBox({ bookingKey }: { bookingKey: string }) {
  const root = useStores();
  const ready = useBookingCodeTexts(root.i18n.i18n, root.i18n.locale);
  const { t } = useTranslation();
  const id = useId();
  if (!ready) return null;
  return (
    <section className="pp-booking-code" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('bookingCode.heading')}</h3>
      <QrCode
        className="pp-booking-code-qr"
        text={bookingCodePayload(window.location.origin, bookingKey)}
        label={t('bookingCode.qrLabel')}
        size={BOOKING_CODE_SIZE}
      />
      <p className="pp-booking-code-text">
        {t('bookingCode.codeLabel')} <code translate="no">{groupedBookingKey(bookingKey)}</code>
      </p>
      <p>{t('bookingCode.caption')}</p>
      <p className="pp-muted">{t('bookingCode.private')}</p>
    </section>
  );
}
