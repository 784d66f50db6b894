import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';

/**
 * Copies an enrollment code, and says what happened in a status region (screen readers hear it).
 * The clipboard needs a secure page and the person's permission; where it is absent or refused,
 * the status says to select the code instead.
 */
export function CopyCode({ code, label }: { code: string; label?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () => {
    const clipboard = typeof navigator.clipboard?.writeText === 'function' ? navigator.clipboard : null;
    if (clipboard === null) return setCopied('failed');
    clipboard.writeText(code).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <>
      <Button variant="secondary" aria-label={label} onClick={copy}>
        {t('staffKiosks.code.copy')}
      </Button>
      <span role="status" className="pp-staff-kiosk-copied">
        {copied === 'yes' ? t('staffKiosks.code.copied') : copied === 'failed' ? t('staffKiosks.code.copyFailed') : ''}
      </span>
    </>
  );
}
