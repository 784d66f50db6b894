import type { ZodType } from 'zod';
import { wholeNumber } from './config-parsers';

/**
 * The shape of one environment variable's declaration (src-server/config-env.ts): its README text
 * and its parser, side by side, so neither can exist without the other.
 */

/** What parseConfig cannot know by itself; loadConfigContext() in config.ts reads it for main.ts. */
export interface ConfigContext {
  cwd: string;
  packageVersion: string;
  /** `git rev-parse --short HEAD`, or null outside a git checkout. */
  gitShortHash: string | null;
}

/** A parser's answer for a value it refuses: one message per thing wrong, without the variable's name. */
export class Refused {
  constructor(readonly messages: readonly string[]) {}
}

export function refuse(...messages: string[]): Refused {
  return new Refused(messages);
}

/**
 * A variable's parser: its trimmed text (undefined when unset or blank) → its value, or Refused.
 * It also answers for the unset case, so the default lives in the parser, next to the README's text.
 */
export type Parse<T> = (text: string | undefined, context: ConfigContext) => T | Refused;

export interface Variable<T, Name extends string = string> {
  /** The README's default column. */
  default: string;
  /** The README's description column. */
  description: string;
  parse: Parse<T>;
  /**
   * Only meaningful beside another variable. Set alone it is reported ("is set but … is not"),
   * ignored, or (checked) reported after its own parse; either way its value is the unset one.
   */
  with?: { name: Name; alone: 'reported' | 'ignored' | 'checked' };
  /** Not read when this other variable is set (that one takes over). */
  unusedWith?: Name;
  /** Taken as written, blanks and spaces included (an empty S3_PREFIX means the bucket's root). */
  untrimmed?: true;
}

/**
 * Checks the table's links at compile time: a `with` or `unusedWith` must name a declared variable.
 * @returns the table unchanged, its parsers' types kept.
 */
export function declareVariables<const V extends { [K in keyof V]: Variable<unknown, Extract<keyof V, string>> }>(variables: V): V {
  return variables;
}

/** The value type a declaration's parser yields. */
export type ValueOf<D> = D extends { parse: (...args: never[]) => infer T } ? Exclude<T, Refused> : never;

/** A raw value in a message, cut short; never used for secrets. */
export function quote(raw: string): string {
  return `'${raw.length > 80 ? `${raw.slice(0, 80)}…` : raw}'`;
}

/** Runs a parser that reports through a callback (one call per bad entry); any call refuses the whole value. */
export function collected<T>(run: (problem: (message: string) => void) => T): T | Refused {
  const messages: string[] = [];
  const value = run((message) => messages.push(message));
  return messages.length > 0 ? new Refused(messages) : value;
}

/** The text as it is, null when unset. */
export const text: Parse<string | null> = (raw) => raw ?? null;

/** A whole number within bounds; `unit` reads " of days" and the like. */
export function wholeNumberIn(min: number, max: number, fallback: number, unit = ''): Parse<number> {
  const read = optionalWholeNumberIn(min, max, unit);
  return (raw, context) => read(raw, context) ?? fallback;
}

/** As wholeNumberIn, with null when unset (the code then decides). */
export function optionalWholeNumberIn(min: number, max: number, unit = ''): Parse<number | null> {
  return (raw) => {
    if (raw === undefined) return null;
    return wholeNumber(raw, min, max) ?? refuse(`must be a whole number${unit} from ${min} to ${max}, got ${quote(raw)}`);
  };
}

/** A value checked by a zod schema; its issues' messages become the line. */
export function fromZod(schema: ZodType<string>): Parse<string | null> {
  return (raw) => {
    if (raw === undefined) return null;
    const checked = schema.safeParse(raw);
    return checked.success ? checked.data : refuse(checked.error.issues.map((issue) => issue.message).join('; '));
  };
}
