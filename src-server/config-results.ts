import { parseSignedLinkKeys } from './platform/signed-links';
import { read, type Env } from './config-parsers';

/**
 * Where a patient's images open (docs/rules/results.md#image-viewer). A deployment points the
 * viewer at its PACS with a URL template: {studyInstanceUid} and {accessionNumber} are filled in
 * (URL-encoded), e.g. https://pacs.example/ohif/viewer?StudyInstanceUIDs={studyInstanceUid}.
 * Without one, the demo provider's images open in the built-in demo viewer, and any other
 * provider's images cannot be opened (the patient is told so), never someone else's pictures.
 */
export interface ImageViewerConfig {
  urlTemplate: string | null;
  /** VIEWER: open the study in the viewer; PACS: send the patient to the provider's PACS portal. */
  preference: 'VIEWER' | 'PACS';
  pacsUrl: string | null;
  /** SIGNED_LINK_KEYS as configured (parsed at start to catch mistakes); null: derived from the server secret. */
  signedLinkKeys: string | null;
}

/** The fields a viewer URL template fills in. */
const TEMPLATE_FIELDS = ['{studyInstanceUid}', '{accessionNumber}'];

function httpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(url.hostname));
  } catch {
    return false;
  }
}

export function parseImageViewerConfig(env: Env, problem: (name: string, message: string) => void): ImageViewerConfig {
  const urlTemplate = read(env, 'IMAGE_VIEWER_URL_TEMPLATE') ?? null;
  if (urlTemplate !== null) {
    if (!TEMPLATE_FIELDS.some((field) => urlTemplate.includes(field)))
      problem('IMAGE_VIEWER_URL_TEMPLATE', 'must contain {studyInstanceUid} or {accessionNumber}');
    if (!httpsUrl(urlTemplate.replaceAll('{studyInstanceUid}', '1').replaceAll('{accessionNumber}', 'A')))
      problem('IMAGE_VIEWER_URL_TEMPLATE', 'must be an https URL');
  }
  const rawPreference = read(env, 'IMAGE_VIEWER_PREFERENCE') ?? 'VIEWER';
  let preference: ImageViewerConfig['preference'] = 'VIEWER';
  if (rawPreference === 'PACS' || rawPreference === 'VIEWER') preference = rawPreference;
  else problem('IMAGE_VIEWER_PREFERENCE', `must be VIEWER or PACS, got '${rawPreference}'`);
  const pacsUrl = read(env, 'PACS_URL') ?? null;
  if (pacsUrl !== null && !httpsUrl(pacsUrl)) problem('PACS_URL', 'must be an https URL');
  if (preference === 'PACS' && pacsUrl === null) problem('PACS_URL', 'is required when IMAGE_VIEWER_PREFERENCE is PACS');
  const signedLinkKeys = read(env, 'SIGNED_LINK_KEYS') ?? null;
  if (signedLinkKeys !== null) {
    try {
      parseSignedLinkKeys(signedLinkKeys);
    } catch (error) {
      problem('SIGNED_LINK_KEYS', error instanceof Error ? error.message : 'is not a valid key list');
    }
  }
  return { urlTemplate, preference, pacsUrl, signedLinkKeys };
}
