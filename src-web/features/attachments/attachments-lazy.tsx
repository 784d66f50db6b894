import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AttachmentOwner } from '../../api/attachments-api';
import { createQuestionnairesApi } from '../../api/questionnaires-api';
import type { FeatureStoreContext } from '../../stores/root-store';
import { useStores } from '../../stores/use-stores';

const AttachmentsSectionChunk = lazy(() => import('./attachments-section'));
const SentDocumentsChunk = lazy(() => import('./attachments-section').then((module) => ({ default: module.SentDocuments })));

/** Issues temporary keys (the same ones questionnaire answers use while booking). */
const temporaryKeysOf = ({ client }: FeatureStoreContext) => createQuestionnairesApi(client);

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

/**
 * Documents while booking, before the appointment exists (docs/rules/attachments.md#where-they-belong): kept
 * under the booking's temporary key (one is issued when there is none yet, and onKey records it so
 * the booking carries it), asked for by the chosen exams; the booking takes them when it is made.
 */
export function LazyBookingDocuments({
  bookingKey,
  examSlugs,
  onKey,
}: {
  bookingKey: string | null;
  examSlugs: readonly string[];
  onKey: (key: string) => void;
}) {
  const root = useStores();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (bookingKey !== null) return;
    let live = true;
    root
      .featureStore(temporaryKeysOf)
      .newBookingKey()
      .then(
        (answer) => live && onKey(answer.bookingKey),
        () => live && setFailed(true),
      );
    return () => {
      live = false;
    };
  }, [bookingKey, root, onKey]);
  if (bookingKey === null || failed) return null;
  return (
    <Suspense fallback={null}>
      <AttachmentsSectionChunk owner={{ base: 'booking-keys', bookingKey }} examSlugs={examSlugs} />
    </Suspense>
  );
}

/** On the confirmation: the documents that went with the booking. */
export function LazySentDocuments() {
  return (
    <Suspense fallback={null}>
      <SentDocumentsChunk />
    </Suspense>
  );
}
