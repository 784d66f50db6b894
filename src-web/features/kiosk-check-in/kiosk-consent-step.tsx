import { observer } from 'mobx-react-lite';
import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { SafeHtml } from '../../components/safe-html';
import type { KioskCheckInStore } from './kiosk-check-in-store';
import { KioskSignaturePad, type SignaturePadHandle } from './kiosk-signature-pad';
import './kiosk-finish.css';

/** A link in the form's text is not followed at the kiosk (mouse, touch or Enter all click). */
function keepOnPage(event: MouseEvent<HTMLDivElement>) {
  if (event.target instanceof Element && event.target.closest('a')) event.preventDefault();
}

/**
 * The consent step (docs/rules/kiosk.md#finishing-at-the-kiosk): each unsigned consent form in
 * full, as the appointment page shows it (sanitised HTML), signed with a finger under the
 * patient's name. "I agree and sign" waits for a drawing; a refusal stays on the form with its
 * message; "Sign at the desk instead" leaves the form for the desk.
 */
export const ConsentStep = observer(function ConsentStep({ store }: { store: KioskCheckInStore }) {
  const { t } = useTranslation();
  const id = useId();
  const finish = store.finish;
  const form = finish.currentForm;
  const pad = useRef<SignaturePadHandle | null>(null);
  const [drawn, setDrawn] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  // A new form starts with an empty pad, and the screen reader hears its title.
  useEffect(() => {
    pad.current?.clear();
    setDrawn(false);
    heading.current?.focus();
  }, [form?.id]);

  if (form === null) return null;
  const sign = () => {
    const png = pad.current?.toPng();
    if (png) void store.signConsent(png);
  };
  const position = { index: finish.consentIndex + 1, count: finish.consentForms.length };
  return (
    <section className="pp-kiosk-card pp-kiosk-consent" aria-labelledby={`${id}-title`}>
      {/* Wide screens read on the left and sign on the right, so the pad and its button are on the first screen. */}
      <div className="pp-kiosk-consent-reading">
        <p className="pp-kiosk-hint">{t('kiosk.consent.position', position)}</p>
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          {form.title}
        </h2>
        {/* A long form scrolls in its box; focusable so it scrolls with the keyboard too. Its links
            (a privacy policy) would leave the check-in: at the kiosk they stay text. */}
        <div
          className="pp-kiosk-consent-text"
          role="region"
          aria-label={t('kiosk.consent.textLabel')}
          tabIndex={0}
          onClickCapture={keepOnPage}
        >
          <SafeHtml html={form.html} className="pp-rich-text" />
        </div>
      </div>
      <div className="pp-kiosk-consent-signing">
        <p className="pp-kiosk-consent-signer">{t('kiosk.consent.signingAs', { name: finish.signerName })}</p>
        <KioskSignaturePad
          handleRef={pad}
          label={t('kiosk.consent.padLabel')}
          hint={t('kiosk.consent.padHint')}
          clearLabel={t('kiosk.consent.clear')}
          onDrawnChange={setDrawn}
        />
        {finish.signProblem && (
          <p className="pp-field-error pp-kiosk-consent-problem" role="alert">
            {finish.signProblem.message ?? t('kiosk.consent.failed')}
          </p>
        )}
        <div className="pp-kiosk-finish-actions">
          <Button onClick={sign} disabled={!drawn || finish.signing} aria-describedby={drawn ? undefined : `${id}-needs`}>
            {finish.signing ? t('kiosk.consent.signing') : t('kiosk.consent.sign')}
          </Button>
          <Button variant="secondary" onClick={() => void store.skipConsent()} disabled={finish.signing}>
            {t('kiosk.consent.atDesk')}
          </Button>
        </div>
        {!drawn && (
          <p id={`${id}-needs`} className="pp-kiosk-hint">
            {t('kiosk.consent.drawFirst')}
          </p>
        )}
      </div>
    </section>
  );
});
