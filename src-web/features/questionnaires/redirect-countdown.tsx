import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { ModalDialog } from '../../components/modal-dialog';
import { isExternalUrl } from '../../platform/safe-url';

/** The redirect countdown (docs/rules/questionnaires.md#redirect-countdown): 5 s, ticking every 1 s. */
export const REDIRECT_COUNTDOWN_SECONDS = 5;
export const REDIRECT_TICK_MS = 1000;

interface RedirectCountdownProps {
  /** Where the answers send the patient: a path of this portal or another site (already checked safe). */
  url: string;
  /** Goes there (the countdown's end or "Go now"). */
  onGo: () => void;
  /** The patient stays: the countdown stops, nothing is followed. */
  onStay: () => void;
}

/**
 * The REDIRECT outcome's dialog (docs/rules/questionnaires.md#redirect-countdown): a questionnaire's
 * answers send the patient elsewhere (a provider's own page for this exam, another site). It
 * names where, counts down and goes; "Go now" goes at once and "Stay on this page" stops it, so
 * the time limit never decides for someone who reads slowly (WCAG 2.2.1). An alertdialog: a
 * screen reader reads the message once when it opens; the visible count is not live.
 */
export function RedirectCountdown({ url, onGo, onStay }: RedirectCountdownProps) {
  const { t } = useTranslation();
  const messageId = useId();
  const [seconds, setSeconds] = useState(REDIRECT_COUNTDOWN_SECONDS);
  const gone = useRef(false);
  const go = useRef(onGo);
  useEffect(() => {
    go.current = onGo;
  }, [onGo]);

  useEffect(() => {
    const timer = window.setInterval(() => setSeconds((left) => Math.max(0, left - 1)), REDIRECT_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);

  useEffect(() => {
    if (seconds > 0 || gone.current) return;
    gone.current = true;
    go.current();
  }, [seconds]);

  const destination = isExternalUrl(url) ? new URL(url).host : null;
  return (
    <ModalDialog
      role="alertdialog"
      title={t('questionnaire.redirectTitle')}
      describedBy={messageId}
      onDismiss={onStay}
      actions={
        <>
          <Button
            data-autofocus
            onClick={() => {
              gone.current = true;
              onGo();
            }}
          >
            {t('questionnaire.redirectNow')}
          </Button>
          <Button variant="secondary" onClick={onStay}>
            {t('questionnaire.redirectStay')}
          </Button>
        </>
      }
    >
      <div id={messageId}>
        <p>{destination === null ? t('questionnaire.redirectTextHere') : t('questionnaire.redirectTextSite', { site: destination })}</p>
        <p data-redirect-seconds={seconds}>{t('questionnaire.redirectSeconds', { count: seconds })}</p>
      </div>
    </ModalDialog>
  );
}
