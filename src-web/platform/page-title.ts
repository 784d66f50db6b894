/**
 * The page title rule (spec point 1): the radiology name, then ' | ' and the meta title
 * when one is set. The server applies the same rule to the served HTML.
 */
export function pageTitle(radiologyName: string, metaTitle: string | null | undefined): string {
  const meta = metaTitle?.trim();
  return meta ? `${radiologyName} | ${meta}` : radiologyName;
}
