import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CameraScanner, cameraProblemOf, SCAN_INTERVAL_MS } from '../../../../src-web/features/kiosk-scan/camera-scanner';
import { renderWithTexts } from './scan-kit';

// The camera scanner with a stand-in camera (jsdom has none) and a stand-in decoder: what the
// patient sees, that the code is handed over once, and that the camera is always let go.

const decoded = vi.hoisted(() => ({ data: null as string | null, calls: 0 }));
vi.mock('jsqr', () => ({
  default: () => {
    decoded.calls += 1;
    return decoded.data === null ? null : { data: decoded.data };
  },
}));

function fakeStream() {
  const track = { stop: vi.fn() };
  return { track, stream: { getTracks: () => [track] } as unknown as MediaStream };
}

function setCamera(getUserMedia: (() => Promise<MediaStream>) | undefined): void {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: getUserMedia === undefined ? undefined : { getUserMedia: vi.fn(getUserMedia) },
  });
}

describe('CameraScanner', () => {
  beforeEach(() => {
    decoded.data = null;
    decoded.calls = 0;
    // A video that has frames, and a canvas that can hold them.
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(HTMLVideoElement.prototype, 'videoWidth', 'get').mockReturnValue(1280);
    vi.spyOn(HTMLVideoElement.prototype, 'videoHeight', 'get').mockReturnValue(720);
    vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(4);
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage: vi.fn(),
      getImageData: (_x: number, _y: number, width: number, height: number) => ({ data: new Uint8ClampedArray(width * height * 4) }),
    } as unknown as CanvasRenderingContext2D);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    setCamera(undefined);
  });

  it('asks for the front camera, decodes every SCAN_INTERVAL_MS, hands the first code over once and lets the camera go', async () => {
    vi.useFakeTimers();
    const { track, stream } = fakeStream();
    setCamera(async () => stream);
    const codes: string[] = [];
    await renderWithTexts(<CameraScanner onCode={(text) => codes.push(text)} onCancel={() => undefined} />);
    await act(async () => undefined);
    expect(vi.mocked(navigator.mediaDevices.getUserMedia)).toHaveBeenCalledWith({ video: { facingMode: 'user' }, audio: false });
    expect(screen.getByText('Hold the QR code up to the camera.')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(SCAN_INTERVAL_MS * 3));
    expect(decoded.calls).toBe(3);
    expect(codes).toEqual([]);
    decoded.data = 'https://portal.example.com/a/RXizpOy124eIE3xqxwcjKA';
    await act(async () => vi.advanceTimersByTime(SCAN_INTERVAL_MS * 5));
    expect(codes).toEqual([decoded.data]);
    expect(decoded.calls).toBe(4);
    expect(track.stop).toHaveBeenCalled();
  });

  it('stops the camera when it leaves the page', async () => {
    const { track, stream } = fakeStream();
    setCamera(async () => stream);
    const view = await renderWithTexts(<CameraScanner onCode={() => undefined} onCancel={() => undefined} />);
    await act(async () => undefined);
    view.unmount();
    expect(track.stop).toHaveBeenCalled();
  });

  it.each([
    [undefined, 'This kiosk has no camera for scanning'],
    [async () => Promise.reject(new DOMException('no', 'NotFoundError')), 'This kiosk has no camera for scanning'],
    [async () => Promise.reject(new DOMException('no', 'NotAllowedError')), 'The camera cannot be used at this kiosk'],
    [async () => Promise.reject(new Error('busy')), 'The camera could not start'],
  ])('says what is wrong and offers the way back when the camera cannot be used (%#)', async (getUserMedia, words) => {
    setCamera(getUserMedia);
    const cancelled: number[] = [];
    await renderWithTexts(<CameraScanner onCode={() => undefined} onCancel={() => cancelled.push(1)} />);
    expect((await screen.findByRole('alert')).textContent).toContain(words);
    expect((await screen.findByRole('alert')).textContent).toContain('check in with your name');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(cancelled).toEqual([1]);
  });

  it('names the refusals', () => {
    expect(cameraProblemOf(new DOMException('', 'SecurityError'))).toBe('denied');
    expect(cameraProblemOf(new DOMException('', 'OverconstrainedError'))).toBe('noCamera');
    expect(cameraProblemOf('odd')).toBe('failed');
  });
});
