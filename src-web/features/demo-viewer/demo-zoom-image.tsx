import { useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchRef } from 'react-zoom-pan-pinch';
import { Button } from '../../components/button';
import { createTapDetector, maxScaleFor, ZOOM } from './zoom';

/**
 * One study image that zooms and pans (react-zoom-pan-pinch, spec point 9), with the attachment
 * viewer's settings: pinch and wheel (step 0.2), the buttons, +/- and the arrow keys once it has
 * focus, and a double tap or double click that zooms to 2 at that point or back out; 200 ms
 * transitions; at most 3 times (or the image's own pixels when that is more).
 */
export function DemoZoomImage({ src, alt }: { src: string; alt: string }) {
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
    // After the library has handled the same touch's end (it settles its own panning, which
    // would cancel an animation started now).
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
          <div className="pp-button-row pp-demo-viewer-zoom-buttons">
            <Button variant="secondary" onClick={() => void zoomIn(ZOOM.wheelStep * 2, ZOOM.transitionMs)}>
              {t('demoViewer.zoomIn')}
            </Button>
            <Button variant="secondary" onClick={() => void zoomOut(ZOOM.wheelStep * 2, ZOOM.transitionMs)}>
              {t('demoViewer.zoomOut')}
            </Button>
            <Button variant="secondary" onClick={() => void resetTransform(ZOOM.transitionMs)}>
              {t('demoViewer.reset')}
            </Button>
          </div>
          <div
            className="pp-demo-viewer-stage"
            onPointerDown={onPointerDown}
            onPointerUp={onPointerUp}
            onPointerCancel={(event) => {
              pointers.current.delete(event.pointerId);
              taps.current.cancel();
            }}
          >
            <TransformComponent
              wrapperClass="pp-demo-viewer-zoom"
              // The library makes its frame focusable (keyboard: +, -, 0 and the arrows); this names it.
              wrapperProps={{ role: 'group', 'aria-label': alt, 'aria-describedby': 'pp-demo-viewer-hint' }}
            >
              <img
                src={src}
                alt={alt}
                className="pp-demo-viewer-image"
                style={{ maxHeight: ZOOM.imageMaxHeightPx }}
                draggable={false}
                onLoad={(event) => setMaxScale(maxScaleFor(event.currentTarget.naturalWidth, event.currentTarget.clientWidth))}
              />
            </TransformComponent>
          </div>
          <p id="pp-demo-viewer-hint" className="pp-muted">
            {t('demoViewer.hint')}
          </p>
        </>
      )}
    </TransformWrapper>
  );
}
