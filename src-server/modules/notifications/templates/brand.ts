import { FALLBACK_LOCALE, supportedLocaleOf, type SupportedLocale } from '@contract/api/locales';
import { readableColor } from '@contract/shell/theme-variables';
import type { Queryable } from '../../../db/connection';

/**
 * What every mail carries of the provider (docs/rules/notifications.md#layout): its name (the
 * subject's first words), colours from its theme, its logo when one is stored, where to reach it,
 * and its locale (a mail's language when the record names none).
 */
export interface MailBrand {
  name: string;
  /** Buttons: the theme's primary colour, and a readable text colour on it. */
  colour: string;
  onColour: string;
  headerBackground: string;
  headerText: string;
  link: string;
  /** The stored logo, by its public address; null without one (the name stands alone). */
  logoUrl: string | null;
  /** The provider's contact page, or the portal's own; null when neither is known. */
  contactUrl: string | null;
  /** Where patients reach the portal, without a trailing slash ('' where the sender has none: the one-time code). */
  publicUrl: string;
  locale: SupportedLocale;
}

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const colourOr = (value: string | null | undefined, fallback: string): string => (value && HEX.test(value) ? value : fallback);

/** The brand as the demo's defaults draw it, for a provider row not configured yet. */
export function defaultBrand(publicUrl: string, name = 'Radiology'): MailBrand {
  return brandOf({ publicUrl, name });
}

function brandOf(row: {
  publicUrl: string;
  name?: string | null;
  primary?: string | null;
  header_background?: string | null;
  header_text?: string | null;
  link?: string | null;
  contact_url?: string | null;
  locale?: string | null;
  has_logo?: boolean | null;
}): MailBrand {
  const publicUrl = row.publicUrl.replace(/\/+$/, '');
  const colour = colourOr(row.primary, '#0b5f7a');
  const headerBackground = colourOr(row.header_background, '#0c3b4f');
  return {
    name: row.name?.trim() || 'Radiology',
    colour,
    onColour: readableColor('#ffffff', colour),
    headerBackground,
    headerText: readableColor(colourOr(row.header_text, '#ffffff'), headerBackground),
    // Links sit on the white card: the theme's link colour when it reads there.
    link: readableColor(colourOr(row.link, '#0a5c8a'), '#ffffff'),
    logoUrl: row.has_logo === true && publicUrl !== '' ? `${publicUrl}/api/assets/application/logo` : null,
    contactUrl:
      row.contact_url && /^https?:\/\//.test(row.contact_url) ? row.contact_url : publicUrl === '' ? null : `${publicUrl}/contact`,
    publicUrl,
    locale: supportedLocaleOf(row.locale) ?? FALLBACK_LOCALE,
  };
}

/** Reads the brand from the provider row (inside the caller's transaction when given one). */
export async function loadMailBrand(db: Queryable, publicUrl: string): Promise<MailBrand> {
  const rows = await db.query<{
    name: string | null;
    primary: string | null;
    header_background: string | null;
    header_text: string | null;
    link: string | null;
    contact_url: string | null;
    locale: string | null;
    has_logo: boolean;
  }>(
    `select radiology_config->>'name' as name, theme_config->>'colorPrimary' as primary,
            theme_config->>'colorHeaderBackground' as header_background, theme_config->>'colorHeaderText' as header_text,
            theme_config->>'colorLink' as link, radiology_config->>'contactUrl' as contact_url, app_config->>'locale' as locale,
            exists (select 1 from application_image where name = 'logo') as has_logo
       from provider where id = 1`,
  );
  return brandOf({ publicUrl, ...(rows[0] ?? {}) });
}
