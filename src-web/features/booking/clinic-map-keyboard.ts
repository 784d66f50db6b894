/**
 * The clinics on the map as one Tab stop (docs/rules/booking.md#the-clinic-list-and-map):
 * Leaflet makes every marker and cluster a focusable button, which put a dozen stops between the
 * step's heading and its times. The marker pane becomes a toolbar with a roving tabindex: one
 * marker has tabindex 0, the others -1; the arrow keys, Home and End move between them in the
 * list's order (nearest first). Markers come and go as the map zooms and pans, so `update` runs
 * after each change.
 */

const MARKER_SELECTOR = '.leaflet-marker-icon';

/** The key's move in a list of `count`, from `index`; null when the key is not a move. */
export function rovingTarget(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (index + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

export class MarkerRoving {
  /** The marker holding the Tab stop, while it is on the map. */
  private current: HTMLElement | null = null;

  /**
   * @param pane Leaflet's marker pane.
   * @param rank The marker's place in the list (a cluster: its nearest clinic's).
   * @param preferred The marker to hold the stop when none does (the chosen clinic's), if on the map.
   */
  constructor(
    private readonly pane: HTMLElement,
    private readonly rank: (icon: HTMLElement) => number,
    private readonly preferred: () => HTMLElement | null,
  ) {
    pane.addEventListener('keydown', this.onKeyDown);
    pane.addEventListener('focusin', this.onFocusIn);
  }

  private icons(): HTMLElement[] {
    return [...this.pane.querySelectorAll<HTMLElement>(MARKER_SELECTOR)].sort((a, b) => this.rank(a) - this.rank(b));
  }

  /** Gives the stop to the chosen clinic's marker (after a choice made elsewhere). */
  reset(): void {
    if (this.current && this.current === document.activeElement) return;
    this.current = null;
    this.update();
  }

  /** One stop again, after Leaflet added markers (it makes each one focusable). */
  update(): void {
    const icons = this.icons();
    if (!this.current || !icons.includes(this.current)) {
      const preferred = this.preferred();
      this.current = preferred && icons.includes(preferred) ? preferred : (icons[0] ?? null);
    }
    for (const icon of icons) icon.tabIndex = icon === this.current ? 0 : -1;
  }

  dispose(): void {
    this.pane.removeEventListener('keydown', this.onKeyDown);
    this.pane.removeEventListener('focusin', this.onFocusIn);
  }

  private readonly onFocusIn = (event: FocusEvent) => {
    const icon = (event.target as Element | null)?.closest<HTMLElement>(MARKER_SELECTOR);
    if (!icon || icon === this.current) return;
    this.current = icon;
    this.update();
  };

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const icon = (event.target as Element | null)?.closest<HTMLElement>(MARKER_SELECTOR);
    if (!icon) return;
    const icons = this.icons();
    const target = rovingTarget(event.key, icons.indexOf(icon), icons.length);
    if (target === null) return;
    event.preventDefault(); // the arrows would scroll the page
    icons[target]?.focus(); // Leaflet pans a marker at the edge into view
  };
}
