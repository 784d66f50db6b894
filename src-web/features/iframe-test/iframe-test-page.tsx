import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';

/**
 * /iframe-test: the portal framed the way a provider's site embeds it, with the providers' own
 * script tag (/embed.js, docs/embedding.md): a frame of /iframe/select-region as tall as its content.
 */
export function IframeTestPage() {
  const { t } = useTranslation();
  const hostRef = useRef<HTMLDivElement>(null);
  const frameTitle = t('iframeTest.frameTitle');

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const script = document.createElement('script');
    script.src = '/embed.js';
    script.async = true;
    script.dataset.path = '/select-region';
    script.dataset.title = frameTitle;
    host.appendChild(script);
    return () => host.replaceChildren();
  }, [frameTitle]);

  return (
    <Page title={t('iframeTest.title')} className="pp-iframe-test">
      <p>{t('iframeTest.text')}</p>
      <div ref={hostRef} className="pp-iframe-test-host" />
    </Page>
  );
}
