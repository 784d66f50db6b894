import { observer } from 'mobx-react-lite';
import { useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchRef } from 'react-zoom-pan-pinch';
import type { Attachment } from '@contract/api/attachments';
import { Button, ButtonLink } from '../../components/button';
import { ModalDialog } from '../../components/modal-dialog';
import type { AttachmentsStore } from './attachments-store';
import { createTapDetector, maxScaleFor, ZOOM } from './zoom';

/**
 * An image that zooms and pans (react-zoom-pan-pinch, spec point 9): pinch and wheel, the
 * buttons, +/- and the arrow keys once it has focus, and a double tap (or double click) that
 * zooms to 2 at the tapped point or back out.
 */
function ZoomableImage({ attachment, src, alt }: { attachment: Attachment; src: string; alt: string }) {
  const { t } = useTranslation();
  const zoom = useRef<ReactZoomPanPinchRef>(null);
  const taps = useRef(createTapDetector());
  const pointers = useRef(new Set<number>());
  const [maxScale, setMaxScale] = useState<number>(ZOOM.maxScale);

  const onPointerDown = (event: PointerEvent) => {
    pointers.current.add(event.pointerId);
    if (pointers.current.size > 1) taps.current.cancel();
    else taps.current.down({ x: event.clientX, y: event.clientY });
  };
  const onPointerUp = (event: PointerEvent) => {
    const single = pointers.current.size === 1;
    pointers.current.delete(event.pointerId);
    if (!single || !taps.current.up({ x: event.clientX, y: event.clientY })) return;
    const { clientX, clientY } = event;
    // After the library has handled the same touch's end (which settles its own panning and would
    // cancel an animation started now).
    setTimeout(() => {
      const controls = zoom.current;
      if (!controls) return;
      if (controls.instance.state.scale > 1.01) void controls.resetTransform(ZOOM.transitionMs);
      else void controls.zoomToPoint(ZOOM.doubleTapScale, clientX, clientY, ZOOM.transitionMs);
    }, 0);
  };

  return (
    <TransformWrapper
      ref={zoom}
      key={attachment.id}
      minScale={1}
      maxScale={maxScale}
      wheel={{ step: ZOOM.wheelStep }}
      doubleClick={{ disabled: true }}
      keyboard={{ disabled: false, animationTime: ZOOM.transitionMs }}
      zoomAnimation={{ animationTime: ZOOM.transitionMs }}
      autoAlignment={{ animationTime: ZOOM.transitionMs }}
    >
      {({ zoomIn, zoomOut, resetTransform }) => (
        <>
          <div className="pp-button-row pp-att-zoom-buttons">
            <Button variant="secondary" onClick={() => void zoomIn(ZOOM.wheelStep * 2, ZOOM.transitionMs)}>
              {t('attachments.viewer.zoomIn')}
            </Button>
            <Button variant="secondary" onClick={() => void zoomOut(ZOOM.wheelStep * 2, ZOOM.transitionMs)}>
              {t('attachments.viewer.zoomOut')}
            </Button>
            <Button variant="secondary" onClick={() => void resetTransform(ZOOM.transitionMs)}>
              {t('attachments.viewer.reset')}
            </Button>
          </div>
          <div
            className="pp-att-stage"
            onPointerDown={onPointerDown}
            onPointerUp={onPointerUp}
            onPointerCancel={(event) => {
              pointers.current.delete(event.pointerId);
              taps.current.cancel();
            }}
          >
            <TransformComponent
              wrapperClass="pp-att-zoom"
              contentClass="pp-att-zoom-content"
              // The library makes its frame focusable (keyboard: +, -, 0 and the arrows); this names it.
              wrapperProps={{ role: 'group', 'aria-label': alt, 'aria-describedby': 'pp-att-zoom-hint' }}
            >
              <img
                src={src}
                alt={alt}
                className="pp-att-image"
                style={{ maxHeight: ZOOM.imageMaxHeightPx }}
                draggable={false}
                onLoad={(event) => setMaxScale(maxScaleFor(event.currentTarget.naturalWidth, event.currentTarget.clientWidth))}
              />
            </TransformComponent>
          </div>
          <p id="pp-att-zoom-hint" className="pp-muted">
            {t('attachments.viewer.hint')}
          </p>
        </>
      )}
    </TransformWrapper>
  );
}

/** The attachment viewer carousel: one document at a time, previous and next, with its caption. */
export const AttachmentViewer = observer(function AttachmentViewer({ store, index }: { store: AttachmentsStore; index: number }) {
  const { t } = useTranslation();
  const attachment = store.attachments[index];
  if (!attachment) return null;
  const total = store.attachments.length;
  const title = attachment.documentType?.title ?? t('attachments.list.untyped');
  return (
    <ModalDialog
      wide
      title={t('attachments.viewer.title')}
      onDismiss={() => store.closeDialog()}
      actions={
        <>
          {total > 1 && (
            <>
              <Button variant="secondary" onClick={() => store.step(-1)}>
                {t('attachments.viewer.previous')}
              </Button>
              <Button variant="secondary" onClick={() => store.step(1)}>
                {t('attachments.viewer.next')}
              </Button>
            </>
          )}
          <Button onClick={() => store.closeDialog()}>{t('attachments.viewer.close')}</Button>
        </>
      }
    >
      <p role="status" className="pp-muted">
        {t('attachments.viewer.position', { current: index + 1, total })}
      </p>
      <figure className="pp-att-figure">
        {attachment.scanStatus !== 'CLEAN' ? (
          <p>{t('attachments.viewer.checking')}</p>
        ) : attachment.contentType === 'application/pdf' ? (
          <div>
            <p>{t('attachments.viewer.pdf')}</p>
            <div className="pp-button-row">
              <ButtonLink href={store.fileUrl(attachment.viewUrl)} target="_blank" rel="noopener noreferrer">
                {t('attachments.viewer.open', { fileName: attachment.fileName })}
              </ButtonLink>
              <ButtonLink variant="secondary" href={store.fileUrl(attachment.downloadUrl)} download={attachment.fileName}>
                {t('attachments.viewer.download', { fileName: attachment.fileName })}
              </ButtonLink>
            </div>
          </div>
        ) : (
          <ZoomableImage attachment={attachment} src={store.fileUrl(attachment.viewUrl)} alt={`${title}: ${attachment.fileName}`} />
        )}
        <figcaption>
          <strong>{title}</strong>
          {attachment.documentType?.description && <span className="pp-muted"> {attachment.documentType.description}</span>}
        </figcaption>
      </figure>
    </ModalDialog>
  );
});
