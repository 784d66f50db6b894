import { useTranslation } from 'react-i18next';
import './loading-overlay.css';

/**
 * 'message.loading' over the page while a route (and its code) loads. It is announced
 * politely; the CSS fades it in after a short delay so fast navigations do not flash.
 */
export function LoadingOverlay({ text }: { text?: 'message.loading' | 'message.checking_request' } = {}) {
  const { t } = useTranslation();
  return (
    <div className="pp-loading" role="status" aria-live="polite">
      <span className="pp-spinner" aria-hidden="true" />
      <span className="pp-loading-text">{t(text ?? 'message.loading')}</span>
    </div>
  );
}
