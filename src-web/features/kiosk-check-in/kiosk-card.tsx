import { useId, type ReactNode } from 'react';

/**
 * One kiosk screen, the same frame for every step: a card named by its heading (aria-labelledby)
 * with its introduction under it, then the step's own content.
 */
export function KioskCard({
  heading,
  intro,
  className,
  children,
}: {
  heading: string;
  intro?: string;
  /** Another class beside pp-kiosk-card. */
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className={className ? `pp-kiosk-card ${className}` : 'pp-kiosk-card'} aria-labelledby={titleId}>
      <h2 id={titleId}>{heading}</h2>
      {intro !== undefined && <p>{intro}</p>}
      {children}
    </section>
  );
}

/**
 * A kiosk step's form, sent by its button or Enter. The browser's own checks are off
 * (noValidate): the store checks and the step says what is wrong in the kiosk's words.
 */
export function KioskForm({ onSubmit, children }: { onSubmit: () => unknown; children: ReactNode }) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
      noValidate
    >
      {children}
    </form>
  );
}
