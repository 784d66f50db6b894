import { HEIGHT_MESSAGE } from './embed-messages';

/**
 * Posts the content's height to the page around the frame whenever it changes: a ResizeObserver
 * on the content, at most one message per animation frame, none when the height did not change.
 * Returns the function that stops it.
 */
export function postContentHeight(content: HTMLElement, post: (message: { type: string; height: number }) => void): () => void {
  let frame = 0;
  let last = -1;
  const measure = () => {
    frame = 0;
    const height = Math.ceil(content.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post({ type: HEIGHT_MESSAGE, height });
  };
  const schedule = () => {
    if (frame === 0) frame = requestAnimationFrame(measure);
  };
  const observer = new ResizeObserver(schedule);
  observer.observe(content);
  schedule();
  return () => {
    observer.disconnect();
    if (frame !== 0) cancelAnimationFrame(frame);
  };
}
