import { observer } from 'mobx-react-lite';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonVariant } from '../../components/button';
import { useResultSharingTexts } from './result-sharing-texts';
import { useStores } from '../../stores/use-stores';
import type { ShareResultsDialogProps } from './share-results-dialog';

// antd and the dialog's code download when the dialog first opens, not with the page that offers it.
const LazyShareResultsDialog = lazy(() => import('./scoped-share-dialog'));

/** The loading line while the dialog's code arrives (announced, not seen). */
function Loading() {
  const { t } = useTranslation();
  return (
    <p role="status" className="pp-visually-hidden">
      {t('message.loading')}
    </p>
  );
}

/**
 * `<ShareResultsDialog bookingKey type open onClose />`: the share-results dialog for one booking.
 * Nothing is downloaded until it first opens; after that it stays mounted, so closing animates and
 * focus goes back where it was.
 */
export const ShareResultsDialog = observer(function ShareResultsDialog(props: ShareResultsDialogProps) {
  const { i18n } = useStores();
  const textsReady = useResultSharingTexts(i18n.i18n, i18n.locale);
  const [used, setUsed] = useState(props.open);
  if (props.open && !used) setUsed(true);
  if (!used) return null;
  if (!textsReady) return props.open ? <Loading /> : null;
  return (
    <Suspense fallback={props.open ? <Loading /> : null}>
      <LazyShareResultsDialog {...props} />
    </Suspense>
  );
});

interface ShareResultsButtonProps {
  bookingKey: string;
  type: ShareResultsDialogProps['type'];
  /** Defaults to secondary: sharing sits beside the page's main action. */
  variant?: ButtonVariant;
}

/** A button that opens the share-results dialog, and gets the focus back when the dialog closes. */
export const ShareResultsButton = observer(function ShareResultsButton({
  bookingKey,
  type,
  variant = 'secondary',
}: ShareResultsButtonProps) {
  const { i18n } = useStores();
  const { t } = useTranslation();
  const textsReady = useResultSharingTexts(i18n.i18n, i18n.locale);
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  if (!textsReady) return null;
  return (
    <div ref={wrapper} className="pp-share-button">
      <Button variant={variant} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {type === 'HISTORY' ? t('resultSharing.openHistory') : t('resultSharing.openResult')}
      </Button>
      <ShareResultsDialog
        bookingKey={bookingKey}
        type={type}
        open={open}
        onClose={() => setOpen(false)}
        afterClose={() => wrapper.current?.querySelector('button')?.focus()}
      />
    </div>
  );
});
