import { observer } from 'mobx-react-lite';
import { useStores } from '../stores/use-stores';
import { Button } from './button';

interface StaffSignInActionProps {
  label: string;
  /** Runs after a successful sign-in (the page asks the server again). */
  onSignedIn: () => void;
}

/**
 * A staff page's "Sign in" after the server answered 401: the identity provider's popup, then the
 * page loads again. Pointing at it or focusing it loads the sign-in code first, so the popup opens
 * within the click's user activation. Nothing when the portal does not sign staff in itself.
 */
export const StaffSignInAction = observer(function StaffSignInAction({ label, onSignedIn }: StaffSignInActionProps) {
  const { staff } = useStores();
  if (staff.settings === null) return null;
  return (
    <Button
      disabled={staff.busy}
      onPointerEnter={() => staff.preload()}
      onFocus={() => staff.preload()}
      onClick={() => void staff.signIn().then((signedIn) => (signedIn ? onSignedIn() : undefined))}
    >
      {label}
    </Button>
  );
});

interface StaffSignInNoticeProps extends StaffSignInActionProps {
  /** Why the page needs a sign-in. */
  text: string;
  /** An entry page asks without the error colour; a page that was refused shows it. */
  tone?: 'error' | 'neutral';
}

/** The notice a staff or referrer page shows after a 401: why, and the sign-in button. */
export function StaffSignInNotice({ text, label, onSignedIn, tone = 'error' }: StaffSignInNoticeProps) {
  return (
    <div role="alert" className={tone === 'error' ? 'pp-notice pp-notice-error' : 'pp-notice'} data-problem="signInNeeded">
      <p>{text}</p>
      <StaffSignInAction label={label} onSignedIn={onSignedIn} />
    </div>
  );
}
