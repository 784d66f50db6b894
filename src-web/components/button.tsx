import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from 'react';
import './button.css';

/** How a button reads: the one main action, a quieter alternative, or an action that removes something. */
export type ButtonVariant = 'primary' | 'secondary' | 'danger';

interface ButtonLook {
  /** Defaults to primary. */
  variant?: ButtonVariant;
  /** Fills the width of its container (phone layouts). */
  block?: boolean;
}

/** The class list for the portal's button look; exported for the rare element that is neither a button nor a link. */
export function buttonClassName({ variant = 'primary', block = false }: ButtonLook, extra?: string): string {
  return ['pp-button', variant === 'primary' ? '' : `pp-button-${variant}`, block ? 'pp-button-block' : '', extra ?? '']
    .filter(Boolean)
    .join(' ');
}

type ButtonProps = ButtonLook & ButtonHTMLAttributes<HTMLButtonElement>;

/** A native button in the portal's look. type defaults to "button" so it never submits a form by accident. */
export function Button({ variant, block, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClassName({ variant, block }, className)} {...rest} />;
}

type ButtonLinkProps = ButtonLook & AnchorHTMLAttributes<HTMLAnchorElement>;

/** A link that looks like a button (a download, a page elsewhere): it stays a link for assistive technology. */
export function ButtonLink({ variant, block, className, ...rest }: ButtonLinkProps) {
  return <a className={buttonClassName({ variant, block }, className)} {...rest} />;
}
