import { useTranslation } from 'react-i18next';
import { Button } from './button';

interface PageLoadStateProps {
  /** The last load failed (else it is still loading). */
  failed: boolean;
  errorText: string;
  retryText: string;
  onRetry: () => void;
}

/** What a page shows before its data is there: 'message.loading', or the failure with Retry. */
export function PageLoadState({ failed, errorText, retryText, onRetry }: PageLoadStateProps) {
  const { t } = useTranslation();
  if (!failed) return <p role="status">{t('message.loading')}</p>;
  return (
    <div role="alert" className="pp-notice pp-notice-error">
      <p>{errorText}</p>
      <Button variant="secondary" onClick={onRetry}>
        {retryText}
      </Button>
    </div>
  );
}
