import { useId, useRef, type KeyboardEvent } from 'react';

/**
 * A disclosure menu's button (aria-expanded / aria-controls) and its Escape key, the same for the
 * phone menu and the staff account menu: Escape closes the open menu and hands the focus back to
 * the button that opened it.
 */
export function useMenuDisclosure(open: boolean, close: () => void) {
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      close();
      buttonRef.current?.focus();
    }
  };
  const buttonProps = {
    ref: buttonRef,
    type: 'button',
    className: 'pp-menu-button',
    'aria-expanded': open,
    'aria-controls': menuId,
  } as const;
  return { menuId, onKeyDown, buttonProps };
}
