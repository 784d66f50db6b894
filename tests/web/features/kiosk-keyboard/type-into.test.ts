import { describe, expect, it, vi } from 'vitest';
import { keysOf, KEYBOARD_LAYOUTS, layoutFor } from '../../../../src-web/features/kiosk-keyboard/keyboard-layouts';
import { isTypable, nextFieldAfter, typeInto } from '../../../../src-web/features/kiosk-keyboard/type-into';

function field(html: string): HTMLInputElement {
  document.body.innerHTML = `<form>${html}</form>`;
  return document.querySelector('input') as HTMLInputElement;
}

describe('typing a key into the focused field', () => {
  it('starts each word of a name with a capital and goes on in small letters, through an input event', () => {
    const input = field('<input autocapitalize="words" />');
    const onInput = vi.fn();
    input.addEventListener('input', onInput);
    for (const key of ['V', 'A', 'N', ' ', 'D', 'E', 'R', '-', 'B']) typeInto(input, key);
    expect(input.value).toBe('Van Der-B');
    expect(onInput).toHaveBeenCalledTimes(9);
  });

  it('types at the caret, deletes before it, and respects maxLength', () => {
    const input = field('<input maxlength="4" />');
    input.value = '1279';
    input.setSelectionRange(2, 2);
    expect(typeInto(input, '3')).toBe(false);
    expect(input.value).toBe('1279');
    expect(typeInto(input, 'backspace')).toBe(true);
    expect(input.value).toBe('179');
    expect(input.selectionStart).toBe(1);
    expect(typeInto(input, '2')).toBe(true);
    expect(input.value).toBe('1279');
    input.setSelectionRange(0, 0);
    expect(typeInto(input, 'backspace')).toBe(false);
  });

  it('types codes in capitals and e-mail addresses in small letters, shift turning one letter', () => {
    const code = field('<input autocapitalize="characters" />');
    typeInto(code, 'k');
    typeInto(code, 'q', true);
    expect(code.value).toBe('Kq');
    const email = field('<input type="email" autocapitalize="words" />');
    for (const key of ['A', '@', 'B']) typeInto(email, key);
    expect(email.value).toBe('a@b');
  });

  it('knows which fields it types into and which comes next', () => {
    document.body.innerHTML =
      '<form><input id="a" /><input id="b" type="checkbox" /><input id="c" readonly /><input id="d" inputmode="numeric" /></form>';
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => document.getElementById(id));
    expect([a, b, c, d].map((element) => isTypable(element ?? null))).toEqual([true, false, false, true]);
    expect(nextFieldAfter(a as HTMLInputElement)).toBe(d);
    expect(nextFieldAfter(d as HTMLInputElement)).toBeNull();
  });
});

describe('the keyboard layouts', () => {
  it('gives digits the keypad and names the script the patient chose', () => {
    expect(layoutFor({ keypad: 'numeric', type: 'text' }, 'latin')).toBe('numeric');
    expect(layoutFor({ keypad: 'text', type: 'tel' }, 'cyrillic')).toBe('numeric');
    expect(layoutFor({ keypad: 'text', type: 'text' }, 'cyrillic')).toBe('cyrillic');
    expect(keysOf(KEYBOARD_LAYOUTS.numeric)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '{bksp}', '0', '{next}']);
    // Every Macedonian letter is on the Cyrillic layout.
    const cyrillic = keysOf(KEYBOARD_LAYOUTS.cyrillic).join('');
    for (const letter of 'АБВГДЃЕЖЗЅИЈКЛЉМНЊОПРСТЌУФХЦЧЏШ') expect(cyrillic).toContain(letter);
  });
});
