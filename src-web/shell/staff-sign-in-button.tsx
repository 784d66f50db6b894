import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { useStores } from '../stores/use-stores';

interface StaffSignInButtonProps {
  className?: string;
  children: ReactNode;
  /** After the sign-in ended, successful or not (e.g. to close the mobile menu). */
  onDone?: () => void;
}

/**
 * The staff login control when the portal signs staff in itself (docs/identity.md#the-browser):
 * a button, not a link, since it opens the identity provider's popup. Pointing at it or
 * focusing it starts loading the sign-in code, so the popup opens within the click's user
 * activation, which browsers require to let a popup through.
 */
export const StaffSignInButton = observer(function StaffSignInButton({ className, children, onDone }: StaffSignInButtonProps) {
  const { staff } = useStores();
  return (
    <button
      type="button"
      className={className}
      aria-busy={staff.busy}
      disabled={staff.busy}
      onPointerEnter={() => staff.preload()}
      onFocus={() => staff.preload()}
      onClick={() => void staff.signIn({ from: 'navigation' }).finally(() => onDone?.())}
    >
      {children}
    </button>
  );
});
