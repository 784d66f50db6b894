import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { isKioskPath } from '../../platform/kiosk';
import { useStores } from '../../stores/use-stores';
import { chatBookingRequest } from './chat-context';
import { chatServiceOf } from './chat-service-of';
import './chat-launcher.css';

// The conversation and its texts load on the first open (docs/rules/chat.md#where-it-shows): the launcher is all the main bundle holds.
const ChatPanel = lazy(() => import('./chat-panel'));

/** First path segments (after /iframe) of staff, referrer, kiosk and tool pages: no chat there. */
const NO_CHAT_SEGMENTS = new Set(['staff', 'referrer', 'referrer-access', 'kiosk', 'preview-email', 'demo-viewer', 'iframe-test']);

/** Whether a patient page may offer the chat (never in kiosk mode, nor to staff booking for a patient). */
export function chatAllowedOn(pathname: string, search: string): boolean {
  const segments = pathname.split('/').filter(Boolean);
  const first = segments[0] === 'iframe' ? segments[1] : segments[0];
  if (first !== undefined && NO_CHAT_SEGMENTS.has(first)) return false;
  const query = new URLSearchParams(search);
  return !isKioskPath(pathname) && query.get('kioskMode') !== 'true' && query.get('staffBooking') !== 'true';
}

/**
 * The "Chat with us" button in the page's bottom corner, and what it opens: the provider's chat
 * service when one is configured (docs/rules/chat.md#the-providers-chat-service), else (or when
 * its script cannot load) the built-in assistant's panel.
 */
export const ChatLauncher = observer(function ChatLauncher() {
  const root = useStores();
  const { ui } = root;
  const service = root.featureStore(chatServiceOf);
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const launcherRef = useRef<HTMLButtonElement>(null);
  const closedOnce = useRef(false);

  // Focus goes back to the launcher when the panel closes.
  useEffect(() => {
    if (!open && closedOnce.current) launcherRef.current?.focus();
  }, [open]);
  const close = useCallback(() => {
    closedOnce.current = true;
    setOpen(false);
  }, []);

  if (ui.kiosk || !chatAllowedOn(pathname, search)) return null;
  return (
    <>
      {!open && (
        <button
          ref={launcherRef}
          type="button"
          className="pp-chat-launcher"
          aria-haspopup="dialog"
          aria-busy={service?.state === 'loading'}
          onClick={() => {
            void (async () => {
              if (service !== null && (await service.open(chatBookingRequest()))) return;
              setWanted(true);
              setOpen(true);
            })();
          }}
        >
          <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 24 24">
            <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />
          </svg>
          {t('chat.launcher')}
        </button>
      )}
      {wanted && (
        <Suspense fallback={null}>
          <ChatPanel open={open} onClose={close} />
        </Suspense>
      )}
    </>
  );
});
