import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Page } from '../../components/page';
import { StaffSignInNotice } from '../../components/staff-sign-in-action';
import { PageLoadState } from '../../components/page-load-state';
import { useStaffTexts } from '../../i18n/staff-texts';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { previewEmailStoreOf, type PreviewEmailStore } from './preview-email-store';
import './preview-email.css';

const Problem = observer(function Problem({ store }: { store: PreviewEmailStore }) {
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
        <StaffSignInNotice text={t('previewEmail.signInNeeded')} label={t('previewEmail.signIn')} onSignedIn={() => void store.retry()} />
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
        {/* sandbox="": no script, no forms, no same-origin access; the mail is shown, never run. The
            server serves the HTML as a page of its own whose policy allows the mail's inline styles
            (a srcdoc frame would inherit the portal's policy, which drops them). */}
        <iframe
          className="pp-preview-email-frame"
          sandbox=""
          src={store.htmlUrl ?? undefined}
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
export const PreviewEmailPage = observer(function PreviewEmailPage() {
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
      <Problem store={store} />
      <Preview store={store} />
    </Page>
  );
});
