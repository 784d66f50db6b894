import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Keyboard from 'react-simple-keyboard';
import 'react-simple-keyboard/build/css/index.css';
import { KEYBOARD_LAYOUTS, keysOf, layoutFor } from './keyboard-layouts';
import { isTypable, nextFieldAfter, typeInto, type TypableField } from './type-into';
import './kiosk-keyboard.css';

type Script = 'latin' | 'cyrillic';

/** The field the patient is typing in: set on focus, cleared when focus leaves every field (a field a new page removed is dropped at render). */
function useFocusedField(): [TypableField | null, (field: TypableField | null) => void] {
  const [field, setField] = useState<TypableField | null>(null);
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!isTypable(target) || target.closest('[data-no-kiosk-keyboard]')) return;
      // Which keys it needs is read before the OS keyboard is sent away (inputMode none keeps
      // Windows' touch keyboard from covering ours; a physical keyboard still types).
      target.dataset.kioskKeypad ??= target.inputMode === 'numeric' ? 'numeric' : 'text';
      target.inputMode = 'none';
      setField(target);
    };
    const onFocusOut = () => {
      setTimeout(() => {
        if (!isTypable(document.activeElement)) setField(null);
      }, 0);
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, []);
  return [field, setField];
}

/**
 * The kiosk's own on-screen keyboard (docs/rules/kiosk.md#typing-on-the-kiosk): a Linux kiosk has
 * none, and the operating system's would cover the form. It opens under any text field that gets
 * focus and types into it; letters for names (Latin or Cyrillic), a keypad for dates and codes.
 * Its keys never take focus (preventMouseDownDefault) and are not tab stops, so a physical
 * keyboard keeps working as before.
 */
export function KioskKeyboard() {
  const { t, i18n } = useTranslation();
  const [field, setField] = useFocusedField();
  const [script, setScript] = useState<Script>(i18n.language === 'mk' ? 'cyrillic' : 'latin');
  // Shift holds for one letter of one field: moving to another field leaves it off.
  const [shiftedField, setShiftedField] = useState<TypableField | null>(null);
  const shift = field !== null && shiftedField === field;

  useEffect(() => {
    field?.scrollIntoView({ block: 'center' });
  }, [field]);

  if (field === null || !field.isConnected) return null;
  const layoutName = layoutFor({ keypad: field.dataset.kioskKeypad, type: field.type }, script);
  const layout = KEYBOARD_LAYOUTS[layoutName];
  const hasNext = nextFieldAfter(field) !== null;

  const press = (button: string) => {
    if (!field.isConnected) return setField(null);
    switch (button) {
      case '{bksp}':
        typeInto(field, 'backspace');
        return;
      case '{space}':
        typeInto(field, ' ');
        return;
      case '{shift}':
        setShiftedField(shift ? null : field);
        return;
      case '{script}':
        setScript((current) => (current === 'latin' ? 'cyrillic' : 'latin'));
        return;
      case '{next}': {
        const next = nextFieldAfter(field);
        if (next) next.focus();
        else field.blur();
        return;
      }
      default:
        typeInto(field, button, shift);
        setShiftedField(null);
    }
  };

  return (
    <div
      className={`pp-kiosk-keyboard pp-kiosk-keyboard-${layoutName}`}
      role="group"
      aria-label={t('kiosk.keyboard.label')}
      data-layout={layoutName}
    >
      <Keyboard
        layout={{ default: layout }}
        layoutName="default"
        display={{
          '{bksp}': `⌫ ${t('kiosk.keyboard.delete')}`,
          '{space}': t('kiosk.keyboard.space'),
          '{shift}': `⇧ ${t('kiosk.keyboard.shift')}`,
          '{script}': script === 'latin' ? 'АБВ' : 'ABC',
          '{next}': hasNext ? t('kiosk.keyboard.next') : t('kiosk.keyboard.done'),
        }}
        useButtonTag
        preventMouseDownDefault
        disableButtonHold
        disableCaretPositioning
        buttonTheme={[
          { class: 'pp-key-function', buttons: '{bksp} {shift} {script} {space}' },
          { class: 'pp-key-next', buttons: '{next}' },
          ...(shift ? [{ class: 'pp-key-on', buttons: '{shift}' }] : []),
        ]}
        buttonAttributes={[
          { attribute: 'tabindex', value: '-1', buttons: keysOf(layout).join(' ') },
          { attribute: 'aria-label', value: t('kiosk.keyboard.delete'), buttons: '{bksp}' },
          { attribute: 'aria-label', value: t('kiosk.keyboard.shift'), buttons: '{shift}' },
          { attribute: 'aria-pressed', value: String(shift), buttons: '{shift}' },
          {
            attribute: 'aria-label',
            value: script === 'latin' ? t('kiosk.keyboard.cyrillic') : t('kiosk.keyboard.latin'),
            buttons: '{script}',
          },
        ]}
        onKeyPress={press}
      />
    </div>
  );
}
