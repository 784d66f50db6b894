import { Suspense, useEffect, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import type { StaffLoadProblem } from '../api/staff-load-problem';
import { useStores } from '../stores/use-stores';
import { Page } from './page';
import { PageLoadState } from './page-load-state';
import { StaffSignInNotice } from './staff-sign-in-action';

/** What a staff table page's store offers this frame. */
export interface StaffTableStore {
  problem: StaffLoadProblem | null;
  /** Loaded at least once: the table may show. */
  readonly loaded: boolean;
  load(): Promise<void>;
  dispose(): void;
}

export interface StaffTableTexts {
  signInNeeded: string;
  signIn: string;
  roleNeeded: string;
  unavailable: string;
  retry: string;
}

const loading = <PageLoadState failed={false} errorText="" retryText="" onRetry={() => undefined} />;

/**
 * The states every staff table page shares (the callback queue, the referrers' feedback): it loads
 * on arrival and again when the signed-in person changes; no session asks for the staff sign-in,
 * a session without the role says so, a failure offers Retry; otherwise the table (antd, loaded
 * with it: the spinner stands in meanwhile).
 */
export const StaffTableStates = observer(function StaffTableStates({
  store,
  texts,
  arrive = () => store.load(),
  children,
}: {
  store: StaffTableStore;
  texts: StaffTableTexts;
  /** The load on arrival and after a change of person (default: store.load()). */
  arrive?: () => Promise<void>;
  children: ReactNode;
}) {
  const root = useStores();
  // Signing in or out asks the server again.
  const staffUserId = root.staff.user?.userId ?? null;

  useEffect(() => {
    void arrive();
    return () => store.dispose();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- arrive is a new function each render; the store and person decide
  }, [store, staffUserId]);

  if (store.problem === 'signInNeeded')
    return <StaffSignInNotice text={texts.signInNeeded} label={texts.signIn} onSignedIn={() => void store.load()} />;
  if (store.problem === 'roleNeeded')
    return (
      <p role="alert" className="pp-notice pp-notice-error" data-problem="roleNeeded">
        {texts.roleNeeded}
      </p>
    );
  if (store.problem === 'unavailable')
    return <PageLoadState failed errorText={texts.unavailable} retryText={texts.retry} onRetry={() => void store.load()} />;
  if (!store.loaded) return loading;
  return <Suspense fallback={loading}>{children}</Suspense>;
});

/**
 * A staff table page (the queues, the referrers' feedback): its title and introduction above the
 * shared states (StaffTableStates), the table's workspace once loaded.
 */
export function StaffTablePage({
  title,
  intro,
  className,
  children,
  ...states
}: {
  title: string;
  intro: string;
  className: string;
  store: StaffTableStore;
  texts: StaffTableTexts;
  arrive?: () => Promise<void>;
  children: ReactNode;
}) {
  return (
    <Page title={title} className={className}>
      <p>{intro}</p>
      <StaffTableStates {...states}>{children}</StaffTableStates>
    </Page>
  );
}
