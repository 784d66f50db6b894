import { HEIGHT_MESSAGE } from './embed-messages';

/**
 * A frame the browser does not render (a cross-origin frame outside the window) gets no animation
 * frames and no ResizeObserver callbacks: a timer measures then, and DOM changes and loaded images
 * (which still arrive) schedule it, so the frame gets its height before it scrolls into view.
 */
const FALLBACK_MS = 100;

/**
 * Posts the content's height to the page around the frame whenever it changes: a ResizeObserver
 * on the content, at most one message per animation frame, none when the height did not change.
 * Returns the function that stops it.
 */
export function postContentHeight(content: HTMLElement, post: (message: { type: string; height: number }) => void): () => void {
  let animationFrame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = -1;
  const measure = () => {
    cancelAnimationFrame(animationFrame);
    clearTimeout(timer);
    animationFrame = 0;
    timer = undefined;
    const height = Math.ceil(content.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    post({ type: HEIGHT_MESSAGE, height });
  };
  const schedule = () => {
    if (timer !== undefined) return;
    animationFrame = requestAnimationFrame(measure);
    timer = setTimeout(measure, FALLBACK_MS);
  };
  const observer = new ResizeObserver(schedule);
  observer.observe(content);
  const mutations = new MutationObserver(schedule);
  mutations.observe(content, { childList: true, subtree: true, attributes: true, characterData: true });
  content.addEventListener('load', schedule, true);
  schedule();
  return () => {
    observer.disconnect();
    mutations.disconnect();
    content.removeEventListener('load', schedule, true);
    cancelAnimationFrame(animationFrame);
    clearTimeout(timer);
  };
}
