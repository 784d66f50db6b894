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
  /**
   * IMAGE_REPOSITORY_SOURCES: PACS archives besides 'default' (which follows the two settings
   * above), each with its own preference; a link naming another source is refused.
   */
  repositorySources: Record<string, RepositorySource>;
}

export interface RepositorySource {
  preference: 'VIEWER' | 'PACS';
  pacsUrl: string | null;
}

const SOURCE_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** "archive=PACS@https://pacs.example/portal,research=VIEWER" → the sources; problems named one per entry. */
function parseRepositorySources(text: string, problem: (name: string, message: string) => void): Record<string, RepositorySource> {
  const sources: Record<string, RepositorySource> = {};
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([^=]+)=(VIEWER|PACS)(?:@(.+))?$/.exec(entry);
    const name = match?.[1]?.trim() ?? '';
    if (match === null || !SOURCE_NAME.test(name) || name === 'default') {
      problem(
        'IMAGE_REPOSITORY_SOURCES',
        `'${entry}' is not name=VIEWER or name=PACS@https://… (names are 1 to 32 letters, digits, - or _, not 'default')`,
      );
      continue;
    }
    const preference = match[2] as 'VIEWER' | 'PACS';
    const pacsUrl = match[3]?.trim() ?? null;
    if (pacsUrl !== null && !httpsUrl(pacsUrl)) problem('IMAGE_REPOSITORY_SOURCES', `${name}: the PACS portal must be an https URL`);
    if (preference === 'PACS' && pacsUrl === null)
      problem('IMAGE_REPOSITORY_SOURCES', `${name}: PACS needs its portal, name=PACS@https://…`);
    sources[name] = { preference, pacsUrl };
  }
  return sources;
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
  const repositorySources = parseRepositorySources(read(env, 'IMAGE_REPOSITORY_SOURCES') ?? '', problem);
  return { urlTemplate, preference, pacsUrl, signedLinkKeys, repositorySources };
}
