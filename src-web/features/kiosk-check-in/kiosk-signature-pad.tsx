import { useEffect, useId, useRef, type MutableRefObject } from 'react';
import SignaturePad from 'signature_pad';
import { SIGNATURE_MAX_HEIGHT, SIGNATURE_MAX_WIDTH } from '@contract/api/appointments';
import { Button } from '../../components/button';

/**
 * A finger signature on a canvas (signature_pad: pointer events, with mouse and touch where the
 * browser has none). The canvas is scaled for devicePixelRatio so strokes stay sharp, but never
 * past the server's size limit (SIGNATURE_MAX_WIDTH × SIGNATURE_MAX_HEIGHT).
 */

export interface SignaturePadHandle {
  /** The drawing as a PNG data: URL, or null while nothing is drawn. */
  toPng(): string | null;
  clear(): void;
}

interface Props {
  /** The canvas's accessible name (what to do). */
  label: string;
  /** A line under the pad (how to do it). */
  hint: string;
  clearLabel: string;
  /** Called after each stroke and on clear: whether something is drawn. */
  onDrawnChange(drawn: boolean): void;
  handleRef: MutableRefObject<SignaturePadHandle | null>;
}

/** The backing store's scale: the screen's pixel ratio, bounded by the server's limit. */
export function canvasScale(cssWidth: number, cssHeight: number, devicePixelRatio: number): number {
  const limit = Math.min(SIGNATURE_MAX_WIDTH / Math.max(cssWidth, 1), SIGNATURE_MAX_HEIGHT / Math.max(cssHeight, 1));
  return Math.max(Math.min(devicePixelRatio || 1, limit), Math.min(1, limit));
}

export function KioskSignaturePad({ label, hint, clearLabel, onDrawnChange, handleRef }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const hintId = useId();
  // The latest callback without re-creating the pad (that would drop the drawing).
  const changed = useRef(onDrawnChange);
  useEffect(() => {
    changed.current = onDrawnChange;
  }, [onDrawnChange]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, { penColor: '#0b1f4d', minWidth: 1.5, maxWidth: 4.5 });
    const fit = () => {
      const rect = canvas.getBoundingClientRect();
      const scale = canvasScale(rect.width, rect.height, window.devicePixelRatio);
      const strokes = pad.toData();
      canvas.width = Math.floor(rect.width * scale);
      canvas.height = Math.floor(rect.height * scale);
      canvas.getContext('2d')?.scale(scale, scale);
      // Resizing a canvas wipes it: draw the strokes again.
      pad.clear();
      pad.fromData(strokes);
    };
    fit();
    const onStroke = () => changed.current(!pad.isEmpty());
    pad.addEventListener('endStroke', onStroke);
    window.addEventListener('resize', fit);
    handleRef.current = {
      toPng: () => (pad.isEmpty() ? null : pad.toDataURL('image/png')),
      clear: () => {
        pad.clear();
        changed.current(false);
      },
    };
    return () => {
      window.removeEventListener('resize', fit);
      pad.removeEventListener('endStroke', onStroke);
      pad.off();
      handleRef.current = null;
    };
  }, [handleRef]);

  return (
    <div className="pp-kiosk-signature">
      <canvas ref={canvasRef} className="pp-kiosk-signature-canvas" role="img" aria-label={label} aria-describedby={hintId} />
      <div className="pp-kiosk-signature-row">
        <p id={hintId} className="pp-kiosk-hint">
          {hint}
        </p>
        <Button variant="secondary" onClick={() => handleRef.current?.clear()}>
          {clearLabel}
        </Button>
      </div>
    </div>
  );
}
