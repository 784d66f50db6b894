import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { useSelfServiceTexts } from '../i18n/self-service-texts';
import { useStores } from '../stores/use-stores';
import { preloadSanitizer } from './safe-html';

/**
 * The wiring both self-service pages share (appointment, booking request): the booking key from
 * the path, the page's store opened for it (sign-in first, then the summary) and released on
 * leaving, the self-service texts, and the sanitiser loaded as soon as the page will show
 * configured HTML (before the patient opens it, not after).
 */
export function useBookingPage(
  store: { open(bookingKey: string): Promise<void>; dispose(): void },
  showsConfiguredHtml: boolean,
): { bookingKey: string; textsReady: boolean } {
  const root = useStores();
  const { bookingKey = '' } = useParams();
  const textsReady = useSelfServiceTexts(root.i18n.i18n, root.i18n.locale);

  useEffect(() => {
    void store.open(bookingKey);
    return () => store.dispose();
  }, [store, bookingKey]);

  useEffect(() => {
    if (showsConfiguredHtml) void preloadSanitizer();
  }, [showsConfiguredHtml]);

  return { bookingKey, textsReady };
}
