import { useEffect, useRef } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useStores } from '../../stores/use-stores';
import { CopyCode } from './copy-code';
import { EnrollmentSheet } from './enrollment-sheet';
import { formatKioskTime } from './kiosk-times';
import type { StaffKiosksStore } from './staff-kiosks-store';

/**
 * The one-time enrollment code just issued: large, monospace, grouped as XXXX-XXXX so it can be
 * read out or typed at the kiosk. The server never shows it again, so the page says so.
 */
export const IssuedCode = observer(function IssuedCode({ store }: { store: StaffKiosksStore }) {
  const { t } = useTranslation();
  const { i18n, content } = useStores();
  const heading = useRef<HTMLHeadingElement>(null);
  const issued = store.issued;
  const code = issued?.code;

  // A new code takes the focus, so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (code) heading.current?.focus();
  }, [code]);

  if (issued === null) return null;
  // In the kiosk's clinic's zone, as its other times are; this browser's zone for a kiosk at no clinic.
  const clinic = content.clinics.find((each) => each.slug === issued.kiosk.clinicSlug);
  const expires = formatKioskTime(issued.expiresAt, i18n.locale, clinic?.timeZone);
  return (
    <section className="pp-staff-kiosk-code-panel" aria-labelledby="pp-staff-kiosk-code-heading" data-testid="staff-kiosk-enrollment-code">
      <h2 id="pp-staff-kiosk-code-heading" ref={heading} tabIndex={-1}>
        {t('staffKiosks.code.heading', { name: issued.kiosk.name })}
      </h2>
      <p className="pp-staff-kiosk-code" aria-label={t('staffKiosks.code.label')} data-testid="staff-kiosk-code">
        {issued.code}
      </p>
      <p>{t('staffKiosks.code.once')}</p>
      <p>{t('staffKiosks.code.expires', { time: expires })}</p>
      <div className="pp-button-row">
        <CopyCode code={issued.code} />
        <Button variant="secondary" onClick={() => window.print()}>
          {t('staffKiosks.code.print')}
        </Button>
        <Button variant="secondary" onClick={() => store.dismissCode()}>
          {t('staffKiosks.code.done')}
        </Button>
      </div>
      <EnrollmentSheet kioskName={issued.kiosk.name} clinicName={clinic?.name ?? null} code={issued.code} expires={expires} />
    </section>
  );
});
