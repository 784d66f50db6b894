import { useId, useState } from 'react';

interface VersionTooltipProps {
  label: string;
  detail: string;
}

/**
 * The footer's version with "version (hash)" on hover or keyboard focus. A small tooltip of
 * our own instead of antd's: it keeps the popup code off the first screen, and it follows
 * WCAG 1.4.13 (shown on focus, dismissed with Escape, stays while hovered).
 */
export function VersionTooltip({ label, detail }: VersionTooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <span className="pp-tooltip-anchor" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        className="pp-version"
        aria-describedby={id}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        {label}
      </button>
      <span role="tooltip" id={id} className="pp-tooltip" hidden={!open}>
        {detail}
      </span>
    </span>
  );
}
