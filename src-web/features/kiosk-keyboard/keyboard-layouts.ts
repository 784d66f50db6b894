/**
 * The kiosk keyboard's layouts (react-simple-keyboard rows, keys separated by spaces; {name} is a
 * function key). Letters show in capitals, as on a physical keyboard; type-into.ts decides the
 * case that is typed. Macedonian patients may write their name in Cyrillic, so both scripts are a
 * tap apart; digits for dates and codes get a keypad of their own.
 */

export type KeyboardLayoutName = 'latin' | 'cyrillic' | 'numeric';

export const KEYBOARD_LAYOUTS: Record<KeyboardLayoutName, string[]> = {
  latin: [
    '1 2 3 4 5 6 7 8 9 0 {bksp}',
    'Q W E R T Y U I O P',
    "A S D F G H J K L '",
    '{shift} Z X C V B N M - .',
    '{script} @ {space} {next}',
  ],
  cyrillic: [
    '1 2 3 4 5 6 7 8 9 0 {bksp}',
    'Љ Њ Е Р Т Ѕ У И О П Ш Ѓ',
    'А С Д Ф Г Х Ј К Л Ч Ќ Ж',
    "{shift} З Џ Ц В Б Н М - '",
    '{script} {space} {next}',
  ],
  numeric: ['1 2 3', '4 5 6', '7 8 9', '{bksp} 0 {next}'],
};

/** Every key of a layout once, for attributes given to all of them. */
export function keysOf(layout: readonly string[]): string[] {
  return [...new Set(layout.flatMap((row) => row.split(' ')))];
}

/** What a field asks for: the keypad for digits (dates, codes), else letters in the patient's script. */
export function layoutFor(field: { keypad: string | undefined; type: string }, script: 'latin' | 'cyrillic'): KeyboardLayoutName {
  if (field.keypad === 'numeric' || field.type === 'tel' || field.type === 'number') return 'numeric';
  return script;
}
