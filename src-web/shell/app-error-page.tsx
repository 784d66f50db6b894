import { useTranslation } from 'react-i18next';
import { Button } from '../components/button';

/**
 * The whole-app failure page, the same for a configuration that cannot be loaded and a render
 * that failed: only the sentence differs. It needs no stores or router (neither may be there).
 */
export function AppErrorPage({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <main className="pp-page pp-app-error">
      <h1>{t('error.title')}</h1>
      <p>{text}</p>
      <Button onClick={() => window.location.reload()}>{t('action.reload')}</Button>
    </main>
  );
}
