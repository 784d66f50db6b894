import type { LoadState } from './load-state';

/** What came of opening a self-service page's booking. */
export type SummaryLoad<T> =
  /** A newer open() started meanwhile: nothing of this one applies. */
  | { kind: 'superseded' }
  /** Not signed in: the patient is on the way to the sign-in page. */
  | { kind: 'signingIn' }
  | { kind: 'failed' }
  | { kind: 'loaded'; summary: T };

/**
 * How a self-service page (appointment, booking request) opens its booking: the authenticated
 * check first (the sign-in page when needed), then the booking's summary. `isCurrent` says
 * whether this open() is still the latest.
 */
export async function loadSignedInSummary<T>(steps: {
  signIn(): Promise<boolean>;
  summary(): Promise<T>;
  isCurrent(): boolean;
}): Promise<SummaryLoad<T>> {
  const signedIn = await steps.signIn();
  if (!steps.isCurrent()) return { kind: 'superseded' };
  if (!signedIn) return { kind: 'signingIn' };
  try {
    const summary = await steps.summary();
    return steps.isCurrent() ? { kind: 'loaded', summary } : { kind: 'superseded' };
  } catch {
    // A 401 already went to sign-in (the client's rule); anything else shows the load error.
    return steps.isCurrent() ? { kind: 'failed' } : { kind: 'superseded' };
  }
}

/** The page's load state after a (current) open. */
export function loadStateOf(load: Exclude<SummaryLoad<unknown>, { kind: 'superseded' }>): LoadState {
  return load.kind === 'loaded' ? 'loaded' : load.kind === 'failed' ? 'error' : 'idle';
}
