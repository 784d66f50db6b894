import { useTranslation } from 'react-i18next';
import './loading-overlay.css';

/**
 * 'message.loading' over the page while a route (and its code) loads, or 'message.checking_request'
 * while the proof-of-work check runs (src-web/api/client.ts). It is announced
 * politely; the CSS fades it in after a short delay so fast navigations do not flash.
 */
export function LoadingOverlay({ checkingRequest = false }: { checkingRequest?: boolean } = {}) {
  const { t } = useTranslation();
  return (
    <div className="pp-loading" role="status" aria-live="polite">
      <span className="pp-spinner" aria-hidden="true" />
      <span className="pp-loading-text">{checkingRequest ? t('message.checking_request') : t('message.loading')}</span>
    </div>
  );
}
