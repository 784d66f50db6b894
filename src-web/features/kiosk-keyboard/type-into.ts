/**
 * Typing a key of the on-screen keyboard into the focused field, the way a physical key would: at
 * the caret, within maxLength, through the native value setter and an input event so React's
 * onChange sees it (a controlled input ignores a plain `value =`).
 */

export type TypableField = HTMLInputElement | HTMLTextAreaElement;

const TEXT_TYPES = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number']);

/** Fields the keyboard types into: text-like inputs and text areas that can be edited. */
export function isTypable(element: EventTarget | null): element is TypableField {
  if (element instanceof HTMLTextAreaElement) return !element.readOnly && !element.disabled;
  return element instanceof HTMLInputElement && TEXT_TYPES.has(element.type) && !element.readOnly && !element.disabled;
}

/** The case a letter is typed in: names start each word with a capital, codes are all capitals, e-mail all small. */
export function letterCase(field: TypableField, before: string, shift: boolean): 'upper' | 'lower' {
  const capitalize = field.getAttribute('autocapitalize') ?? '';
  let upper = false;
  if (capitalize === 'characters') upper = true;
  else if (capitalize === 'words') upper = before === '' || /[\s'-]$/.test(before);
  if (field instanceof HTMLInputElement && field.type === 'email') upper = false;
  return upper !== shift ? 'upper' : 'lower';
}

function setNativeValue(field: TypableField, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

// Only some input types have a caret (email and number do not): the others type at the end.
function selectionOf(field: TypableField): [number, number] {
  try {
    if (field.selectionStart !== null && field.selectionEnd !== null) return [field.selectionStart, field.selectionEnd];
  } catch {
    // selectionStart throws on input types without a caret.
  }
  return [field.value.length, field.value.length];
}

function placeCaret(field: TypableField, at: number): void {
  try {
    field.setSelectionRange(at, at);
  } catch {
    // No caret on this input type.
  }
}

/** Types one character (or deletes one with 'backspace'); returns false when nothing changed. */
export function typeInto(field: TypableField, key: string | 'backspace', shift = false): boolean {
  const [start, end] = selectionOf(field);
  const value = field.value;
  if (key === 'backspace') {
    if (start === end && start === 0) return false;
    const from = start === end ? start - 1 : start;
    setNativeValue(field, value.slice(0, from) + value.slice(end));
    placeCaret(field, from);
    return true;
  }
  const before = value.slice(0, start);
  const character = letterCase(field, before, shift) === 'upper' ? key.toLocaleUpperCase() : key.toLocaleLowerCase();
  const next = before + character + value.slice(end);
  if (field.maxLength > 0 && next.length > field.maxLength) return false;
  setNativeValue(field, next);
  placeCaret(field, start + character.length);
  return true;
}

/** The next field of the same form (the keyboard's Next key), or null on the last one. */
export function nextFieldAfter(field: TypableField): TypableField | null {
  const scope = field.form ?? field.closest('section, [role="dialog"], main') ?? document.body;
  const fields = [...scope.querySelectorAll('input, textarea')].filter(isTypable);
  return fields[fields.indexOf(field) + 1] ?? null;
}
