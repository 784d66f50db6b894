/** Inline icons: decorative (the control next to them carries the name), no icon font to download. */
const common = { width: 20, height: 20, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;

/** Every icon is drawn with the text colour's 2 px round-ended line. */
const line = { stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', fill: 'none' } as const;

interface LineIconProps {
  d: string;
  circle?: { cx: number; cy: number; r: number };
}

function LineIcon({ d, circle }: LineIconProps) {
  return (
    <svg {...common}>
      {circle && <circle {...circle} {...line} />}
      <path d={d} {...line} />
    </svg>
  );
}

export const MenuIcon = () => <LineIcon d="M3 6h18M3 12h18M3 18h18" />;

export const CloseIcon = () => <LineIcon d="M6 6l12 12M18 6L6 18" />;

export const UserIcon = () => <LineIcon circle={{ cx: 12, cy: 8, r: 4 }} d="M4 21c0-4 4-6 8-6s8 2 8 6" />;

/** A magnifier with a plus: zoom in. */
export const ZoomInIcon = () => <LineIcon circle={{ cx: 10.5, cy: 10.5, r: 6.5 }} d="M15.5 15.5L21 21M7.5 10.5h6M10.5 7.5v6" />;

/** A magnifier with a minus: zoom out. */
export const ZoomOutIcon = () => <LineIcon circle={{ cx: 10.5, cy: 10.5, r: 6.5 }} d="M15.5 15.5L21 21M7.5 10.5h6" />;

/** Four corners around a frame: the whole image again (reset the zoom). */
export const ZoomResetIcon = () => <LineIcon d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" />;
