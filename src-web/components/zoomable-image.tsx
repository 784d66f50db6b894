import { useRef, useState, type PointerEvent } from 'react';
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchRef } from 'react-zoom-pan-pinch';
import { ZoomInIcon, ZoomOutIcon, ZoomResetIcon } from './icons';
import { createTapDetector, maxScaleFor, ZOOM } from './zoom';
import './zoomable-image.css';

export interface ZoomableImageProps {
  src: string;
  alt: string;
  /** The buttons' (and their group's) and the hint's texts, in the page's own words. */
  labels: { zoomIn: string; zoomOut: string; reset: string; tools: string; hint: string };
  /** Prefix of the parts' class names and the hint's id, e.g. pp-att: pp-att-stage, pp-att-zoom-hint. */
  classPrefix: string;
}

/**
 * An image that zooms and pans (react-zoom-pan-pinch, docs/rules/attachments.md#the-web-app), as the attachment viewer
 * and the demo image viewer show them: pinch and wheel (step 0.2), the buttons, +/- and the
 * arrow keys once it has focus, and a double tap or double click that zooms to 2 at that point
 * or back out; 200 ms transitions; at most 3 times (or the image's own pixels when that is more).
 * The buttons float over the image's bottom edge, within a thumb's reach on a phone, so they never
 * push the image down.
 */
export function ZoomableImage({ src, alt, labels, classPrefix }: ZoomableImageProps) {
  const zoom = useRef<ReactZoomPanPinchRef>(null);
  const taps = useRef(createTapDetector());
  const pointers = useRef(new Set<number>());
  const [maxScale, setMaxScale] = useState<number>(ZOOM.maxScale);
  const hintId = `${classPrefix}-zoom-hint`;

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
          <div className="pp-zoom-frame">
            <div
              className={`${classPrefix}-stage`}
              onPointerDown={onPointerDown}
              onPointerUp={onPointerUp}
              onPointerCancel={(event) => {
                pointers.current.delete(event.pointerId);
                taps.current.cancel();
              }}
            >
              <TransformComponent
                wrapperClass={`${classPrefix}-zoom`}
                contentClass={`${classPrefix}-zoom-content`}
                // The library makes its frame focusable (keyboard: +, -, 0 and the arrows); this names it.
                wrapperProps={{ role: 'group', 'aria-label': alt, 'aria-describedby': hintId }}
              >
                <img
                  src={src}
                  alt={alt}
                  className={`${classPrefix}-image`}
                  style={{ maxHeight: ZOOM.imageMaxHeightPx }}
                  draggable={false}
                  onLoad={(event) => setMaxScale(maxScaleFor(event.currentTarget.naturalWidth, event.currentTarget.clientWidth))}
                />
              </TransformComponent>
            </div>
            {/* Outside the stage: taps on the buttons are never the image's double tap. */}
            <div role="group" aria-label={labels.tools} className={`pp-zoom-tools ${classPrefix}-zoom-buttons`}>
              {[
                { label: labels.zoomIn, icon: <ZoomInIcon />, act: () => zoomIn(ZOOM.wheelStep * 2, ZOOM.transitionMs) },
                { label: labels.zoomOut, icon: <ZoomOutIcon />, act: () => zoomOut(ZOOM.wheelStep * 2, ZOOM.transitionMs) },
                { label: labels.reset, icon: <ZoomResetIcon />, act: () => resetTransform(ZOOM.transitionMs) },
              ].map((tool) => (
                <button
                  key={tool.label}
                  type="button"
                  className="pp-zoom-tool"
                  aria-label={tool.label}
                  title={tool.label}
                  onClick={() => void tool.act()}
                >
                  {tool.icon}
                </button>
              ))}
            </div>
          </div>
          <p id={hintId} className="pp-muted">
            {labels.hint}
          </p>
        </>
      )}
    </TransformWrapper>
  );
}
