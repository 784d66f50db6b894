import { lazy, Suspense, useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AttachmentOwner } from '../../api/attachments-api';

const AttachmentsSectionChunk = lazy(() => import('./attachments-section'));

/** ?upload on a page's URL (a link from an e-mail or the check-in readiness): the documents section is brought into view. */
export const UPLOAD_PARAM = 'upload';

/**
 * The documents section, loaded when a page shows it: the widget, the viewer with
 * react-zoom-pan-pinch and their texts stay out of the booking home's bundle (docs/web.md#budgets).
 * After a change the `upload` query parameter is dropped (spec: Attachments transition) and
 * onChanged runs.
 */
export function LazyAttachmentsSection({ owner, onChanged }: { owner: AttachmentOwner; onChanged?: () => void }) {
  const [params, setParams] = useSearchParams();
  const requested = params.has(UPLOAD_PARAM);
  const changed = useCallback(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(UPLOAD_PARAM);
        return next;
      },
      { replace: true },
    );
    onChanged?.();
  }, [setParams, onChanged]);
  return (
    <Suspense fallback={null}>
      <AttachmentsSectionChunk owner={owner} onChanged={changed} bringIntoView={requested} />
    </Suspense>
  );
}
