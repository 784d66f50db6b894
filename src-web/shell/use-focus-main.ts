import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * After a client-side navigation, moves focus to the new content so screen readers announce it
 * (WCAG 2.4.3); the first page load keeps the browser's default. Returns the ref for <main>.
 */
export function useFocusMainOnNavigate(): RefObject<HTMLElement | null> {
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (firstPath.current === pathname) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);
  return mainRef;
}
