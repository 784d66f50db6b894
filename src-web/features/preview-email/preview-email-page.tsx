import { useEffect, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Page } from '../../components/page';
import { PageLoadState } from '../../components/page-load-state';
import { useStaffTexts } from '../../i18n/staff-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { previewEmailStoreOf, type PreviewEmailStore } from './preview-email-store';
import './preview-email.css';

export interface PreviewEmailPageProps {
  /**
   * Shown under the "staff sign-in is needed" message after a 401: the place for the staff
   * sign-in button (MSAL), which the page itself does not know. Nothing by default.
   */
  staffSignIn?: ReactNode;
}

const Problem = observer(function Problem({ store, staffSignIn }: { store: PreviewEmailStore; staffSignIn?: ReactNode }) {
  const { t } = useTranslation();
  const problem = store.problem;
  switch (problem?.kind) {
    case undefined:
      return null;
    case 'missingParams':
      return (
        <p role="alert" className="pp-notice pp-notice-error" data-problem="missingParams">
          {t('previewEmail.missingParams', { names: problem.names.join(', ') })}
        </p>
      );
    case 'signInNeeded':
      return (
        <div role="alert" className="pp-notice pp-notice-error" data-problem="signInNeeded">
          <p>{t('previewEmail.signInNeeded')}</p>
          {staffSignIn}
        </div>
      );
    case 'server':
      // The server's own explanation (unknown template, language or reference; a role without access).
      return (
        <p role="alert" className="pp-notice pp-notice-error" data-problem="server">
          {problem.message}
        </p>
      );
    case 'unavailable':
      return (
        <PageLoadState
          failed
          errorText={t('previewEmail.unavailable')}
          retryText={t('previewEmail.retry')}
          onRetry={() => void store.retry()}
        />
      );
  }
});

const Preview = observer(function Preview({ store }: { store: PreviewEmailStore }) {
  const { t } = useTranslation();
  const preview = store.preview;
  if (preview === null) return null;
  return (
    <>
      <p role="status">{t('previewEmail.notSent')}</p>
      <section aria-labelledby="pp-preview-email-subject">
        <h2 id="pp-preview-email-subject">{t('previewEmail.subject')}</h2>
        <p data-testid="preview-email-subject">{preview.subject}</p>
      </section>
      <section aria-labelledby="pp-preview-email-html">
        <h2 id="pp-preview-email-html">{t('previewEmail.htmlVersion')}</h2>
        {/* sandbox="": no script, no forms, no same-origin access; the mail is shown, never run. A srcdoc
            document inherits the portal's CSP (style-src without 'unsafe-inline'), so browsers drop the
            mail's inline style attributes here: structure and text are exact, styling is not. */}
        <iframe
          className="pp-preview-email-frame"
          sandbox=""
          srcDoc={preview.html}
          title={t('previewEmail.htmlFrameTitle', { subject: preview.subject })}
          referrerPolicy="no-referrer"
        />
      </section>
      <section aria-labelledby="pp-preview-email-text">
        <h2 id="pp-preview-email-text">{t('previewEmail.textVersion')}</h2>
        <pre className="pp-preview-email-text" data-testid="preview-email-text">
          {preview.text}
        </pre>
      </section>
    </>
  );
});

/** /preview-email?template&lang&referenceId: the real e-mail for a record, for staff (docs/rules/notifications.md#e-mail-preview). */
export const PreviewEmailPage = observer(function PreviewEmailPage({ staffSignIn }: PreviewEmailPageProps) {
  const root = useStores();
  const store = root.featureStore(previewEmailStoreOf);
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const textsReady = useStaffTexts(root.i18n.i18n, root.i18n.locale);
  const search = params.toString();

  useEffect(() => {
    void store.open(new URLSearchParams(search));
    return () => store.dispose();
  }, [store, search]);

  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('previewEmail.title')} className="pp-preview-email">
      {store.loadState === 'loading' && <PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />}
      <Problem store={store} staffSignIn={staffSignIn} />
      <Preview store={store} />
    </Page>
  );
});
