import { observer } from 'mobx-react-lite';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { postContentHeight } from '../platform/embed-height';
import { claimedParentOrigin, SCROLL_INTO_VIEW_MESSAGE } from '../platform/embed-messages';
import { followParentViewport } from '../platform/embed-viewport';
import { useStores } from '../stores/use-stores';
import { EmbeddedContext } from './embedded';
import { MAIN_CONTENT_ID } from './skip-link';
import { useFocusMainOnNavigate } from './use-focus-main';
import './embedded.css';

/**
 * The /iframe layout (docs/embedding.md): only the page, with the embedded flag on. No badge,
 * banner, header, navigation or footer: the provider's page around the frame is the chrome.
 * When the page around it may embed the portal (the server says so), the frame posts its
 * content's height there and places its dialogs in the part the visitor sees.
 */
const EmbeddedShell = observer(function EmbeddedShell() {
  const { ui, api } = useStores();
  const { pathname } = useLocation();
  const rootRef = useRef<HTMLDivElement>(null);
  const mainRef = useFocusMainOnNavigate();
  const postRef = useRef<((message: { type: string }) => void) | null>(null);

  useEffect(() => {
    const root = document.documentElement;
    root.classList.add('pp-in-embed');
    const origin = claimedParentOrigin(window);
    let stop: (() => void) | null = null;
    let cancelled = false;
    if (origin) {
      api.config
        .embedParentAllowed(origin)
        .then((allowed) => {
          const content = rootRef.current;
          if (!allowed || cancelled || !content) return;
          const post = (message: { type: string }) => window.parent.postMessage(message, origin);
          postRef.current = post;
          const stopHeight = postContentHeight(content, post);
          // Once the page around sizes the frame, the frame itself never scrolls.
          const stopViewport = followParentViewport(window, origin, () => root.classList.add('pp-embed-sized'));
          stop = () => {
            stopHeight();
            stopViewport();
          };
        })
        .catch((error: unknown) => console.warn('[embed] could not check the embedding page', error));
    }
    return () => {
      cancelled = true;
      stop?.();
      postRef.current = null;
      root.classList.remove('pp-in-embed', 'pp-embed-sized');
    };
  }, [api]);

  // A new page starts at its top: bring the frame's top into view when the visitor scrolled past it.
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (firstPath.current === pathname) return;
    firstPath.current = '';
    postRef.current?.({ type: SCROLL_INTO_VIEW_MESSAGE });
  }, [pathname]);

  return (
    <div ref={rootRef} className={`pp-app pp-embedded pp-device-${ui.device}`}>
      <main id={MAIN_CONTENT_ID} ref={mainRef} tabIndex={-1} className="pp-main">
        <Outlet />
      </main>
    </div>
  );
});

export function EmbeddedLayout() {
  return (
    <EmbeddedContext.Provider value={true}>
      <EmbeddedShell />
    </EmbeddedContext.Provider>
  );
}
