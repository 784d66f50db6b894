import { describe, expect, it } from 'vitest';
import { blockedInputReason, installInputPolicy, shouldBlockInput, type BlockedInputReason } from '../../src-main/input-policy';
import { FakeWebContents } from './helpers/fake-electron';

type Keys = { key: string; code?: string; control?: boolean; meta?: boolean; alt?: boolean; shift?: boolean };
const press = (keys: Keys) => ({ code: '', control: false, meta: false, alt: false, shift: false, ...keys });

describe('shouldBlockInput', () => {
  it.each<[string, Keys, BlockedInputReason]>([
    ['Ctrl+R', { key: 'r', control: true }, 'reload'],
    ['Cmd+R', { key: 'r', meta: true }, 'reload'],
    ['Ctrl+Shift+R', { key: 'R', control: true, shift: true }, 'reload'],
    ['F5', { key: 'F5' }, 'reload'],
    ['Ctrl+F5', { key: 'F5', control: true }, 'reload'],
    ['browser refresh key', { key: 'BrowserRefresh' }, 'reload'],
    ['F12', { key: 'F12' }, 'devtools'],
    ['Ctrl+Shift+I', { key: 'I', control: true, shift: true }, 'devtools'],
    ['Ctrl+Shift+J', { key: 'J', control: true, shift: true }, 'devtools'],
    ['Ctrl+Shift+C', { key: 'C', control: true, shift: true }, 'devtools'],
    ['Cmd+Alt+I', { key: 'i', meta: true, alt: true }, 'devtools'],
    ['Ctrl+=', { key: '=', code: 'Equal', control: true }, 'zoom'],
    ['Ctrl++ (shifted)', { key: '+', code: 'Equal', control: true, shift: true }, 'zoom'],
    ['Ctrl+-', { key: '-', code: 'Minus', control: true }, 'zoom'],
    ['Ctrl+0', { key: '0', code: 'Digit0', control: true }, 'zoom'],
    ['Ctrl+numpad +', { key: '+', code: 'NumpadAdd', control: true }, 'zoom'],
    ['Ctrl+numpad -', { key: '-', code: 'NumpadSubtract', control: true }, 'zoom'],
    ['Cmd+=', { key: '=', code: 'Equal', meta: true }, 'zoom'],
    ['Ctrl+P', { key: 'p', control: true }, 'print'],
    ['Ctrl+Shift+P', { key: 'P', control: true, shift: true }, 'print'],
    ['Cmd+P', { key: 'p', meta: true }, 'print'],
    ['Ctrl+W', { key: 'w', control: true }, 'close'],
    ['Ctrl+F4', { key: 'F4', control: true }, 'close'],
    ['Alt+F4', { key: 'F4', alt: true }, 'close'],
    ['Cmd+Q', { key: 'q', meta: true }, 'close'],
    ['Ctrl+Q', { key: 'q', control: true }, 'close'],
    ['Alt+Left', { key: 'ArrowLeft', alt: true }, 'history'],
    ['Alt+Right', { key: 'ArrowRight', alt: true }, 'history'],
    ['Cmd+[', { key: '[', meta: true }, 'history'],
    ['Cmd+]', { key: ']', meta: true }, 'history'],
    ['browser back key', { key: 'BrowserBack' }, 'history'],
    ['browser forward key', { key: 'BrowserForward' }, 'history'],
  ])('blocks %s (%s)', (_name, keys, reason) => {
    expect(blockedInputReason(press(keys))).toBe(reason);
    expect(shouldBlockInput(press(keys))).toBe(true);
  });

  it.each<[string, Keys]>([
    ['a letter', { key: 'r' }],
    ['a capital letter', { key: 'R', shift: true }],
    ['a digit', { key: '0', code: 'Digit0' }],
    ['minus in a date', { key: '-', code: 'Minus' }],
    ['plus in a phone number', { key: '+', code: 'Equal', shift: true }],
    ['Backspace', { key: 'Backspace' }],
    ['Enter', { key: 'Enter' }],
    ['Tab', { key: 'Tab' }],
    ['Shift+Tab', { key: 'Tab', shift: true }],
    ['arrow keys in a form', { key: 'ArrowLeft' }],
    ['Shift+Left to select text', { key: 'ArrowLeft', shift: true }],
    ['Ctrl+Left to jump a word', { key: 'ArrowLeft', control: true }],
    ['Escape (closes the inactivity dialog)', { key: 'Escape' }],
    ['Ctrl+A to select a field', { key: 'a', control: true }],
    ['Ctrl+C to copy', { key: 'c', control: true }],
    ['F4 alone', { key: 'F4' }],
    ['AltGr characters', { key: '@', code: 'KeyQ', control: true, alt: true }],
    ['AltGr+0 typing a brace', { key: '}', code: 'Digit0', control: true, alt: true }],
  ])('lets %s through', (_name, keys) => {
    expect(blockedInputReason(press(keys))).toBeNull();
  });
});

describe('installInputPolicy', () => {
  it('swallows blocked keys on before-input-event and passes the rest to the page', () => {
    const contents = new FakeWebContents();
    installInputPolicy(contents);
    expect(contents.listenerCount('before-input-event')).toBe(1);
    expect(contents.emitKey({ key: 'F5' })).toBe(true);
    expect(contents.emitKey({ key: 'I', control: true, shift: true })).toBe(true);
    expect(contents.emitKey({ key: 'F4', alt: true })).toBe(true);
    expect(contents.emitKey({ key: 'a' })).toBe(false);
    expect(contents.emitKey({ key: 'Enter' })).toBe(false);
  });
});
