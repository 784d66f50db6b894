/**
 * The page title rule (docs/rules/shell.md#page-title): the radiology name, then ' | ' and the meta title
 * when one is set. The server applies the same rule to the served HTML.
 */
export function pageTitle(radiologyName: string, metaTitle: string | null | undefined): string {
  const meta = metaTitle?.trim();
  return meta ? `${radiologyName} | ${meta}` : radiologyName;
}
