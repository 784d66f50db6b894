/**
 * The provider's banner position (radiology config `bannerPositionCss`, docs/rules/shell.md#banner):
 * CSS declarations such as `position: sticky; top: 0`, read into a short whitelist and never
 * put into the page as raw CSS. The web app applies the result as a style object on the banner,
 * the server's first paint as a rule in its nonce'd style element, so both draw it in one place.
 * Zod-free: the booking home imports it.
 */

/** The properties a provider may set, with what each accepts. */
const LENGTH = /^(?:0|-?\d{1,4}(?:\.\d{1,3})?(?:px|rem|%))$/;
const RULES: Record<BannerPositionProperty, (value: string) => boolean> = {
  position: (value) => ['static', 'relative', 'sticky', 'fixed'].includes(value),
  top: (value) => LENGTH.test(value),
  right: (value) => LENGTH.test(value),
  bottom: (value) => LENGTH.test(value),
  left: (value) => LENGTH.test(value),
  'max-width': (value) => value === 'none' || LENGTH.test(value),
  margin: (value) => {
    const parts = value.split(/\s+/);
    return parts.length <= 4 && parts.every((part) => part === 'auto' || LENGTH.test(part));
  },
};

export type BannerPositionProperty = 'position' | 'top' | 'right' | 'bottom' | 'left' | 'max-width' | 'margin';
export const BANNER_POSITION_PROPERTIES = Object.keys(RULES) as BannerPositionProperty[];

/** The accepted declarations, by CSS property name (a later one replaces an earlier, as in CSS). */
export type BannerPosition = Partial<Record<BannerPositionProperty, string>>;

export type BannerPositionResult = { ok: true; position: BannerPosition } | { ok: false; problem: string };

export function parseBannerPositionCss(css: string): BannerPositionResult {
  const position: BannerPosition = {};
  for (const raw of css.split(';')) {
    const declaration = raw.trim();
    if (declaration === '') continue;
    const colon = declaration.indexOf(':');
    const name = (colon < 0 ? declaration : declaration.slice(0, colon)).trim().toLowerCase();
    const value =
      colon < 0
        ? ''
        : declaration
            .slice(colon + 1)
            .trim()
            .toLowerCase()
            .replace(/\s+/g, ' ');
    if (!(name in RULES)) {
      return { ok: false, problem: `"${name}" is not allowed; use only ${BANNER_POSITION_PROPERTIES.join(', ')}` };
    }
    const property = name as BannerPositionProperty;
    if (!RULES[property](value)) {
      return {
        ok: false,
        problem:
          property === 'position'
            ? `position "${value}" is not allowed; use static, relative, sticky or fixed`
            : `${property} "${value}" is not allowed; use 0 or a length in px, rem or %${property === 'margin' ? ' (or auto)' : ''}`,
      };
    }
    position[property] = value;
  }
  return { ok: true, position };
}

/** The accepted position, or none when the setting is empty or refused (the config check refuses it first). */
export function bannerPositionOf(css: string | null): BannerPosition {
  if (css === null) return {};
  const result = parseBannerPositionCss(css);
  return result.ok ? result.position : {};
}

/** As a React style object (camelCase names). */
export function bannerPositionStyle(position: BannerPosition): Record<string, string> {
  return Object.fromEntries(
    Object.entries(position).map(([name, value]) => [name.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()), value]),
  );
}

/** As CSS declarations for a rule (the server's first paint); every value passed the whitelist. */
export function bannerPositionDeclarations(position: BannerPosition): string {
  return Object.entries(position)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
}
