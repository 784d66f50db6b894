import type { Queryable } from '../../db/connection';
import type { MailContext } from './mail-kinds';
import { loadMailBrand } from './templates/brand';
import { mailLocale } from './templates/dates';

/**
 * The provider's look and a mail's locale, read inside the sender's transaction (PGlite has one
 * connection: a read on another would wait for the transaction to end).
 * @param publicUrl - the portal's address for links and the logo; '' where the sender has none.
 * @param locale - the record's own locale where known; the provider's otherwise.
 */
export async function mailContext(db: Queryable, publicUrl: string, locale?: string | null): Promise<MailContext> {
  const brand = await loadMailBrand(db, publicUrl);
  return { brand, locale: locale === undefined || locale === null ? brand.locale : mailLocale(locale) };
}
