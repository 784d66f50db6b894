import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src-server/config';

// IMAGE_VIEWER_URL_TEMPLATE, IMAGE_VIEWER_PREFERENCE, PACS_URL and SIGNED_LINK_KEYS as parseConfig
// reads them (docs/rules/results.md#image-viewer).

const context = { cwd: '/srv/portal', packageVersion: '1.0.0', gitShortHash: null };
const TEMPLATE = 'https://pacs.example.com/ohif/viewer?StudyInstanceUIDs={studyInstanceUid}';

describe('image viewer configuration', () => {
  it('opens a configured PACS viewer, and names the problem of a bad setting in one line', () => {
    const configured = parseConfig({ IMAGE_VIEWER_URL_TEMPLATE: TEMPLATE }, context);
    expect(configured.ok && configured.config.imageViewer).toEqual({
      urlTemplate: TEMPLATE,
      preference: 'VIEWER',
      pacsUrl: null,
      signedLinkKeys: null,
      repositorySources: {},
    });
  });

  it.each([
    [{ IMAGE_VIEWER_URL_TEMPLATE: 'https://pacs.example.com/viewer' }, 'IMAGE_VIEWER_URL_TEMPLATE', /\{studyInstanceUid\}/],
    [{ IMAGE_VIEWER_URL_TEMPLATE: 'http://pacs.example.com/v?s={studyInstanceUid}' }, 'IMAGE_VIEWER_URL_TEMPLATE', /https/],
    [{ IMAGE_VIEWER_URL_TEMPLATE: 'javascript:alert({studyInstanceUid})' }, 'IMAGE_VIEWER_URL_TEMPLATE', /https/],
    [{ IMAGE_VIEWER_PREFERENCE: 'OHIF' }, 'IMAGE_VIEWER_PREFERENCE', /VIEWER or PACS/],
    [{ IMAGE_VIEWER_PREFERENCE: 'PACS' }, 'PACS_URL', /required/],
    [{ PACS_URL: 'ftp://pacs.example.com' }, 'PACS_URL', /https/],
    [{ SIGNED_LINK_KEYS: 'k1:c2hvcnQ' }, 'SIGNED_LINK_KEYS', /at least 32 are required/],
    [{ IMAGE_REPOSITORY_SOURCES: 'archive=OHIF' }, 'IMAGE_REPOSITORY_SOURCES', /name=VIEWER or name=PACS/],
    [{ IMAGE_REPOSITORY_SOURCES: 'default=VIEWER' }, 'IMAGE_REPOSITORY_SOURCES', /not 'default'/],
    [{ IMAGE_REPOSITORY_SOURCES: 'archive=PACS' }, 'IMAGE_REPOSITORY_SOURCES', /needs its portal/],
    [{ IMAGE_REPOSITORY_SOURCES: 'archive=PACS@http://pacs.example.com' }, 'IMAGE_REPOSITORY_SOURCES', /https/],
    [{ SIGNED_LINK_KEYS: `k1:${'A'.repeat(43)}@yesterday` }, 'SIGNED_LINK_KEYS', /ISO-8601/],
  ])('refuses %j naming %s', (env, name, message) => {
    const result = parseConfig(env, context);
    const lines = result.ok ? [] : result.problems;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^- ${name}: `));
    expect(lines[0]).toMatch(message);
  });

  it('reads further repository sources, each with its own preference', () => {
    const configured = parseConfig(
      { IMAGE_REPOSITORY_SOURCES: 'archive=PACS@https://archive.example.com/portal, research=VIEWER' },
      context,
    );
    expect(configured.ok && configured.config.imageViewer.repositorySources).toEqual({
      archive: { preference: 'PACS', pacsUrl: 'https://archive.example.com/portal' },
      research: { preference: 'VIEWER', pacsUrl: null },
    });
  });

  it('never quotes a signed-link secret in its message', () => {
    const secret = 'Zm9vYmFy';
    const result = parseConfig({ SIGNED_LINK_KEYS: `k1:${secret}` }, context);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain(secret);
  });
});
