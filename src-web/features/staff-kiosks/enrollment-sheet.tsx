import { useTranslation } from 'react-i18next';
import { QrCode } from '../../components/qr-code';

interface EnrollmentSheetProps {
  kioskName: string;
  clinicName: string | null;
  code: string;
  expires: string;
}

/**
 * The printable enrollment sheet (docs/rules/kiosk.md#enrollment): only the printer sees it. Its QR
 * code says the enrollment code and nothing else, so the kiosk's enrollment screen can scan it
 * (camera or a scanner that types); the code is printed in text beside it for typing.
 */
export function EnrollmentSheet({ kioskName, clinicName, code, expires }: EnrollmentSheetProps) {
  const { t } = useTranslation();
  return (
    <div className="pp-enrollment-sheet" aria-hidden="true">
      <h1>{t('staffKiosks.sheet.title')}</h1>
      <p className="pp-enrollment-sheet-kiosk">
        {kioskName}
        {clinicName ? ` · ${clinicName}` : ''}
      </p>
      <QrCode text={code} label={t('staffKiosks.sheet.qr')} size={320} className="pp-enrollment-sheet-qr" />
      <p className="pp-enrollment-sheet-code">{code}</p>
      <ol>
        <li>{t('staffKiosks.sheet.step1')}</li>
        <li>{t('staffKiosks.sheet.step2')}</li>
        <li>{t('staffKiosks.sheet.step3')}</li>
      </ol>
      <p>{t('staffKiosks.sheet.expires', { time: expires })}</p>
      <p>{t('staffKiosks.sheet.keep')}</p>
    </div>
  );
}
