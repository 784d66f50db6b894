import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { isExternalUrl } from '../platform/safe-url';

interface PortalLinkProps {
  /** An internal path (router link) or an absolute http(s) URL (plain link, same tab). */
  href: string;
  className?: string;
  children: ReactNode;
  onClick?: () => void;
}

/** One link component for configured targets that may be internal pages or external sites. */
export function PortalLink({ href, className, children, onClick }: PortalLinkProps) {
  if (isExternalUrl(href)) {
    return (
      <a href={href} className={className} rel="noopener" onClick={onClick}>
        {children}
      </a>
    );
  }
  return (
    <Link to={href} className={className} onClick={onClick}>
      {children}
    </Link>
  );
}
