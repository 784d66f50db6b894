import jsQR from 'jsqr';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import './kiosk-scan.css';

/** How often a frame is decoded: often enough to feel instant, rarely enough to leave the kiosk's CPU alone. */
export const SCAN_INTERVAL_MS = 150;
/** Frames are scaled down to this width before decoding: a held-up code is large, and jsQR's cost grows with the pixels. */
const DECODE_WIDTH = 640;

export type CameraProblem = 'noCamera' | 'denied' | 'failed';

/** Why getUserMedia failed, in the words the patient needs (docs/rules/kiosk.md#identify-by-scanning). */
export function cameraProblemOf(error: unknown): CameraProblem {
  const name =
    error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error)
      ? String((error as { name: unknown }).name)
      : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'noCamera';
  return 'failed';
}

function cameraApi(): MediaDevices | null {
  const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  return typeof media?.getUserMedia === 'function' ? media : null;
}

function stopStream(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * The kiosk's camera, looking for a QR code: the patient holds the code up to it. Calls onCode
 * once with the first code decoded (any code: the caller decides whether it is a booking code),
 * and stops the camera then, on Cancel and when it leaves the page. Without a camera, or when
 * the camera is refused, it says so and offers the other ways in: never a dead screen.
 */
export function CameraScanner({
  onCode,
  onCancel,
  purpose = 'booking',
}: {
  onCode: (text: string) => void;
  onCancel: () => void;
  /** What is held up to the camera: a patient's booking code, or IT's enrollment sheet (its own words). */
  purpose?: 'booking' | 'enrollment';
}) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  // No camera API at all (an old browser, an insecure page): say so at once.
  const [problem, setProblem] = useState<CameraProblem | null>(() => (cameraApi() === null ? 'noCamera' : null));
  const [watching, setWatching] = useState(false);
  const latestOnCode = useRef(onCode);
  useEffect(() => {
    latestOnCode.current = onCode;
  });

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | null = null;
    let over = false;
    const stop = () => {
      over = true;
      if (timer !== null) clearInterval(timer);
      timer = null;
      stopStream(stream);
      stream = null;
    };
    const media = cameraApi();
    if (media === null) return stop;
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });

    const decodeFrame = (element: HTMLVideoElement) => {
      if (over || context === null || element.readyState < 2 || element.videoWidth === 0) return;
      const scale = Math.min(1, DECODE_WIDTH / element.videoWidth);
      const width = Math.round(element.videoWidth * scale);
      const height = Math.round(element.videoHeight * scale);
      canvas.width = width;
      canvas.height = height;
      context.drawImage(element, 0, 0, width, height);
      const found = jsQR(context.getImageData(0, 0, width, height).data, width, height, { inversionAttempts: 'dontInvert' });
      if (found === null || found.data === '') return;
      stop();
      latestOnCode.current(found.data);
    };

    media.getUserMedia({ video: { facingMode: 'user' }, audio: false }).then(
      async (opened) => {
        if (over || video.current === null) {
          stopStream(opened);
          return;
        }
        stream = opened;
        const element = video.current;
        element.srcObject = opened;
        // Muted and inline: autoplay needs no gesture. A refused play() still shows frames to decode in Chromium.
        await element.play().catch(() => undefined);
        if (over) return;
        setWatching(true);
        timer = setInterval(() => decodeFrame(element), SCAN_INTERVAL_MS);
      },
      (error: unknown) => {
        if (!over) setProblem(cameraProblemOf(error));
      },
    );
    return stop;
  }, []);

  return (
    <div className="pp-kiosk-scan-camera">
      {problem === null ? (
        <>
          <p id="pp-kiosk-scan-hint" className="pp-kiosk-hint" role="status">
            {!watching
              ? t('kioskScan.camera.starting')
              : purpose === 'booking'
                ? t('kioskScan.camera.hint')
                : t('kioskScan.enrollment.hint')}
          </p>
          <video
            ref={video}
            className="pp-kiosk-scan-video"
            muted
            playsInline
            aria-label={purpose === 'booking' ? t('kioskScan.camera.label') : t('kioskScan.enrollment.label')}
            aria-describedby="pp-kiosk-scan-hint"
          />
        </>
      ) : (
        <p role="alert" className="pp-kiosk-alert">
          {purpose === 'enrollment'
            ? t('kioskScan.enrollment.noCamera')
            : problem === 'noCamera'
              ? t('kioskScan.camera.noCamera')
              : problem === 'denied'
                ? t('kioskScan.camera.denied')
                : t('kioskScan.camera.failed')}
        </p>
      )}
      <Button variant="secondary" block onClick={onCancel}>
        {problem === null ? t('kioskScan.camera.cancel') : t('kioskScan.camera.back')}
      </Button>
    </div>
  );
}
