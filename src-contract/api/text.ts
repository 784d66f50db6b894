import { z } from 'zod';

/**
 * Free text the API accepts (docs/rules/security.md#input). PostgreSQL refuses NUL in text and
 * jsonb, and no form has a reason to send control characters, so every free-text field, path and
 * query parameter is built here and refuses them with a 400 validation_failed naming the field:
 * - singleLineText(): no C0 control character (U+0000 to U+001F) and no DEL (U+007F);
 * - multiLineText(): the same, except tab, line feed and carriage return (notes, report text);
 * - answersWithoutControlCharacters: the same rule as multi-line text for every string (key or
 *   value) inside a free-form answer object (questionnaire answers).
 */

export const CONTROL_CHARACTER_MESSAGE = 'This text contains characters that are not allowed (control characters). Please remove them.';

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const DEL = 0x7f;

function isControl(code: number, multiLine: boolean): boolean {
  if (multiLine && (code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN)) return false;
  return code < 0x20 || code === DEL;
}

/** True when `text` holds no control character the field refuses. */
export function withoutControlCharacters(text: string, multiLine = false): boolean {
  for (let index = 0; index < text.length; index++) if (isControl(text.charCodeAt(index), multiLine)) return false;
  return true;
}

// The builders are marked free of side effects, so the web bundler drops a schema nobody uses
// (and zod with it) from a page that only needs a contract's constants.

/** A one-line text field (a name, a search, a path or query parameter): no control characters at all. */
/* @__NO_SIDE_EFFECTS__ */
export function singleLineText(message: string = CONTROL_CHARACTER_MESSAGE): z.ZodString {
  return z.string().refine((text) => withoutControlCharacters(text), { message, abort: true });
}

/** A text that may span lines (a note): tab, line feed and carriage return allowed, no other control character. */
/* @__NO_SIDE_EFFECTS__ */
export function multiLineText(message: string = CONTROL_CHARACTER_MESSAGE): z.ZodString {
  return z.string().refine((text) => withoutControlCharacters(text, true), { message, abort: true });
}

/** True when every string in `value` (keys too, nested up to 32 levels) is free of control characters (multi-line rule). */
export function answersWithoutControlCharacters(value: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  if (typeof value === 'string') return withoutControlCharacters(value, true);
  if (Array.isArray(value)) return value.every((item) => answersWithoutControlCharacters(item, depth + 1));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).every(
      ([key, item]) => withoutControlCharacters(key, true) && answersWithoutControlCharacters(item, depth + 1),
    );
  return true;
}

/**
 * A search box's text (the referring-doctor search, the referring-practice search): trimmed, its
 * spaces collapsed and lower-cased as the server searches for it (the web app normalises the same
 * way before it decides to ask), then `min` to `max` characters, refused with the same words.
 */
export function normaliseSearchText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The refusals of a search text too short or too long; `searchedFor` names it ("a doctor"). */
export function searchTextMessages(min: number, max: number, searchedFor: string) {
  return {
    tooShort: `Type at least ${min} characters to search for ${searchedFor}.`,
    tooLong: `Search with at most ${max} characters.`,
  } as const;
}

export function searchText(min: number, max: number, messages: ReturnType<typeof searchTextMessages>) {
  return singleLineText().overwrite(normaliseSearchText).min(min, messages.tooShort).max(max, messages.tooLong);
}
