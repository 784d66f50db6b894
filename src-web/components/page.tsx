import { useId, type ReactNode } from 'react';

interface PageProps {
  title: string;
  children?: ReactNode;
  className?: string;
}

/** The content panel every page sits in, named by its one h1. */
export function Page({ title, children, className }: PageProps) {
  const id = useId();
  return (
    <section className={className ? `pp-page ${className}` : 'pp-page'} aria-labelledby={id}>
      <h1 id={id}>{title}</h1>
      {children}
    </section>
  );
}
