import type { LoadHandlers, Loader } from './load-state';

/**
 * How a self-service page (appointment, booking request, result) opens its booking: the
 * authenticated check first (the sign-in page when needed), then the booking's summary, through
 * the page's Loader. Not signed in leaves the state 'idle' (the patient is on the way to sign in);
 * a failed summary shows the load error (a 401 already went to sign-in, the client's rule).
 */
export async function loadSignedInSummary<T>(
  loader: Loader,
  steps: { signIn(): Promise<boolean>; summary(): Promise<T> },
  handlers: LoadHandlers<T>,
): Promise<void> {
  await loader.run(
    async () => {
      const isCurrent = loader.current();
      if (!(await steps.signIn())) return null;
      // A newer open() started while the patient signed in: its own load reads the summary.
      if (!isCurrent()) return null;
      return { summary: await steps.summary() };
    },
    {
      loaded: (answer) => answer !== null && handlers.loaded(answer.summary),
      stateAfter: (answer) => (answer === null ? 'idle' : (handlers.stateAfter?.(answer.summary) ?? 'loaded')),
    },
  );
}
