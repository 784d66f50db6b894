import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { ModalDialog } from '../../components/modal-dialog';
import { IDLE_DIALOG_CLASS } from './activity-watch';
import { ANNOUNCE_AT_SECONDS } from './kiosk-idle-constants';
import type { KioskIdleStore } from './kiosk-idle-store';
import './kiosk-idle.css';

interface InactivityDialogProps {
  store: KioskIdleStore;
  /** Home is optional in the spec and shown by default. */
  showHome?: boolean;
}

/**
 * The kiosk's inactivity dialog (docs/rules/kiosk.md#inactivity) at kiosk scale: the countdown with "I'm still here"
 * (the spec's Cancel, the primary action, focused first: the answer that loses nothing; Escape too)
 * and "Start again" (the spec's Home). An alertdialog, so a screen reader reads the message when it
 * opens; the visible count changes every second but is not live, and a polite status says it once
 * more at ANNOUNCE_AT_SECONDS.
 */
export const InactivityDialog = observer(function InactivityDialog({ store, showHome = true }: InactivityDialogProps) {
  const { t } = useTranslation();
  const messageId = useId();
  const seconds = store.remainingSeconds;

  return (
    <ModalDialog
      role="alertdialog"
      className={IDLE_DIALOG_CLASS}
      title={t('kiosk.inactivityTitle')}
      describedBy={messageId}
      onDismiss={() => store.cancel()}
      actions={
        <>
          <Button data-autofocus disabled={store.ending} onClick={() => store.cancel()}>
            {t('kiosk.stillHere')}
          </Button>
          {showHome && (
            <Button variant="secondary" disabled={store.ending} onClick={() => store.goHome()}>
              {t('kiosk.startAgain')}
            </Button>
          )}
        </>
      }
    >
      <p id={messageId} className="pp-kiosk-idle-message">
        {t('message.inactivity_text', { count: seconds })}
      </p>
      <p role="status" className="pp-visually-hidden">
        {seconds <= ANNOUNCE_AT_SECONDS && !store.ending ? t('message.inactivity_text', { count: ANNOUNCE_AT_SECONDS }) : ''}
      </p>
    </ModalDialog>
  );
});
