import { parseSignedLinkKeys } from './platform/signed-links';
import type { Rule, Values } from './config-env';
import { collected, refuse, type Parse } from './config-variable';

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

/** "archive=PACS@https://pacs.example/portal,research=VIEWER" → the sources; one problem per bad entry. */
function parseRepositorySources(text: string, problem: (message: string) => void): Record<string, RepositorySource> {
  const sources: Record<string, RepositorySource> = {};
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([^=]+)=(VIEWER|PACS)(?:@(.+))?$/.exec(entry);
    const name = match?.[1]?.trim() ?? '';
    if (match === null || !SOURCE_NAME.test(name) || name === 'default') {
      problem(`'${entry}' is not name=VIEWER or name=PACS@https://… (names are 1 to 32 letters, digits, - or _, not 'default')`);
      continue;
    }
    const preference = match[2] as 'VIEWER' | 'PACS';
    const pacsUrl = match[3]?.trim() ?? null;
    if (pacsUrl !== null && !httpsUrl(pacsUrl)) problem(`${name}: the PACS portal must be an https URL`);
    if (preference === 'PACS' && pacsUrl === null) problem(`${name}: PACS needs its portal, name=PACS@https://…`);
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

// The parsers of the image viewer's variables (declared in config-env.ts).

export const imageViewerUrlTemplate: Parse<string | null> = (raw) => {
  if (raw === undefined) return null;
  const messages: string[] = [];
  if (!TEMPLATE_FIELDS.some((field) => raw.includes(field))) messages.push('must contain {studyInstanceUid} or {accessionNumber}');
  if (!httpsUrl(raw.replaceAll('{studyInstanceUid}', '1').replaceAll('{accessionNumber}', 'A'))) messages.push('must be an https URL');
  return messages.length > 0 ? refuse(...messages) : raw;
};

export const imageViewerPreference: Parse<'VIEWER' | 'PACS'> = (raw = 'VIEWER') =>
  raw === 'PACS' || raw === 'VIEWER' ? raw : refuse(`must be VIEWER or PACS, got '${raw}'`);

export const pacsUrl: Parse<string | null> = (raw) =>
  raw !== undefined && !httpsUrl(raw) ? refuse('must be an https URL') : (raw ?? null);

/** Kept as written (platform/signed-links reads it); parsed here only to catch mistakes at start. */
export const signedLinkKeys: Parse<string | null> = (raw) => {
  if (raw === undefined) return null;
  try {
    parseSignedLinkKeys(raw);
    return raw;
  } catch (error) {
    return refuse(error instanceof Error ? error.message : 'is not a valid key list');
  }
};

export const repositorySources: Parse<Record<string, RepositorySource>> = (raw = '') =>
  collected((problem) => parseRepositorySources(raw, problem));

/** PACS sends patients to the provider's portal, so it needs one. */
export const pacsUrlForPacs: Rule = ({ text, values }, problem) => {
  if (values.IMAGE_VIEWER_PREFERENCE === 'PACS' && text.PACS_URL === undefined)
    problem('PACS_URL', 'is required when IMAGE_VIEWER_PREFERENCE is PACS');
};

export function imageViewerOf(values: Values): ImageViewerConfig {
  return {
    urlTemplate: values.IMAGE_VIEWER_URL_TEMPLATE,
    preference: values.IMAGE_VIEWER_PREFERENCE,
    pacsUrl: values.PACS_URL,
    signedLinkKeys: values.SIGNED_LINK_KEYS,
    repositorySources: values.IMAGE_REPOSITORY_SOURCES,
  };
}
