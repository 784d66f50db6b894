import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PORTAL_URL,
  formatConfigProblems,
  KioskProvisioningSchema,
  loadKioskConfig,
  systemProvisioningPath,
  type KioskConfigResult,
  type KioskEnv,
} from '../../src-main/kiosk-config';

const USER_DATA = '/home/kiosk/.config/Patient Portal Kiosk';
const SYSTEM_FILE = '/etc/patient-portal-kiosk/kiosk.json';
const USER_FILE = path.join(USER_DATA, 'kiosk.json');

/** loadKioskConfig over an in-memory file system. */
function load(env: KioskEnv, files: Record<string, string> = {}): KioskConfigResult {
  return loadKioskConfig({
    env,
    platform: 'linux',
    userDataDir: USER_DATA,
    readTextFile: (filePath) => files[filePath] ?? null,
  });
}

/** The configuration from a provisioning file at the system path, with no environment settings. */
function loadProvisioned(settings: Record<string, unknown>): KioskConfigResult {
  return load({}, { [SYSTEM_FILE]: JSON.stringify(settings) });
}

function problems(result: KioskConfigResult): string[] {
  if (result.ok) throw new Error(`expected problems, got ${JSON.stringify(result.config)}`);
  return result.problems;
}
function config(result: KioskConfigResult) {
  if (!result.ok) throw new Error(`expected a config, got:\n${result.problems.join('\n')}`);
  return result.config;
}

describe('loadKioskConfig', () => {
  it('points at the local portal when nothing is provisioned', () => {
    expect(config(load({}))).toEqual({
      portalUrl: DEFAULT_PORTAL_URL,
      allowedOrigin: 'http://localhost:3000',
      startUrl: 'http://localhost:3000/kiosk?kioskMode=true',
      clinicSlug: null,
      sentryDsn: null,
      portalUrlSource: 'default',
      language: null,
      enrollmentCode: null,
      provisioningPath: null,
      updateUrl: null,
      updateChannel: 'stable',
    });
  });

  it('reads the enrollment and update settings from the provisioning file', () => {
    const result = config(
      loadProvisioned({
        portalUrl: 'https://portal.example.com',
        language: 'en-AU',
        enrollmentCode: ' 7kq3-m9xd ',
        sentryDsn: 'https://key@o0.ingest.sentry.io/1',
        updateUrl: 'https://updates.example.com/kiosk',
        updateChannel: 'beta',
      }),
    );
    expect(result).toMatchObject({
      language: 'en-AU',
      enrollmentCode: '7KQ3-M9XD',
      provisioningPath: SYSTEM_FILE,
      sentryDsn: 'https://key@o0.ingest.sentry.io/1',
      updateUrl: 'https://updates.example.com/kiosk',
      updateChannel: 'beta',
    });
  });

  it('names each bad enrollment or update setting', () => {
    const lines = problems(
      loadProvisioned({
        portalUrl: 'https://portal.example.com',
        language: 'fr',
        enrollmentCode: 'ABC',
        updateUrl: 'http://updates.example.com',
        updateChannel: 'Beta 1',
      }),
    );
    expect(lines).toEqual([
      `- ${SYSTEM_FILE} language: must be one of en, en-AU, en-NZ, en-CA, mk`,
      `- ${SYSTEM_FILE} enrollmentCode: must be the 8-character code from the staff kiosk page, e.g. "7KQ3-M9XD"`,
      `- ${SYSTEM_FILE} updateUrl: must be an https address, e.g. "https://updates.example.com/kiosk"`,
      `- ${SYSTEM_FILE} updateChannel: must be lower-case letters, e.g. "stable" or "beta"`,
    ]);
  });

  it('reads the machine-wide provisioning file', () => {
    const result = config(loadProvisioned({ portalUrl: 'https://portal.example.com/', clinicSlug: 'north-sydney' }));
    expect(result).toMatchObject({
      portalUrl: 'https://portal.example.com',
      allowedOrigin: 'https://portal.example.com',
      startUrl: 'https://portal.example.com/kiosk?kioskMode=true',
      clinicSlug: 'north-sydney',
      portalUrlSource: SYSTEM_FILE,
    });
  });

  it('prefers the machine-wide file to the per-user one, and uses the per-user one alone', () => {
    const system = JSON.stringify({ portalUrl: 'https://system.example.com' });
    const user = JSON.stringify({ portalUrl: 'https://user.example.com' });
    expect(config(load({}, { [SYSTEM_FILE]: system, [USER_FILE]: user })).portalUrl).toBe('https://system.example.com');
    expect(config(load({}, { [USER_FILE]: user })).portalUrl).toBe('https://user.example.com');
  });

  it('uses KIOSK_CONFIG_FILE instead of the default locations', () => {
    const files = {
      '/srv/kiosk.json': JSON.stringify({ portalUrl: 'https://explicit.example.com' }),
      [SYSTEM_FILE]: JSON.stringify({ portalUrl: 'https://system.example.com' }),
    };
    expect(config(load({ KIOSK_CONFIG_FILE: '/srv/kiosk.json' }, files)).portalUrl).toBe('https://explicit.example.com');
  });

  it('lets KIOSK_PORTAL_URL override the file but keeps the file clinic', () => {
    const files = { [SYSTEM_FILE]: JSON.stringify({ portalUrl: 'https://system.example.com', clinicSlug: 'parramatta' }) };
    expect(config(load({ KIOSK_PORTAL_URL: 'https://test-portal.example.com' }, files))).toMatchObject({
      startUrl: 'https://test-portal.example.com/kiosk?kioskMode=true',
      clinicSlug: 'parramatta',
      portalUrlSource: 'KIOSK_PORTAL_URL',
    });
  });

  it.each([
    ['https://portal.example.com', 'https://portal.example.com/kiosk?kioskMode=true', 'https://portal.example.com'],
    ['https://portal.example.com///', 'https://portal.example.com/kiosk?kioskMode=true', 'https://portal.example.com'],
    ['  https://Portal.Example.com:443  ', 'https://portal.example.com/kiosk?kioskMode=true', 'https://portal.example.com'],
    ['https://example.com/portal/', 'https://example.com/portal/kiosk?kioskMode=true', 'https://example.com'],
    ['https://portal.example.com:8443', 'https://portal.example.com:8443/kiosk?kioskMode=true', 'https://portal.example.com:8443'],
    ['http://localhost:3000', 'http://localhost:3000/kiosk?kioskMode=true', 'http://localhost:3000'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/kiosk?kioskMode=true', 'http://127.0.0.1:8080'],
  ])('accepts %j: start %s, origin %s', (portalUrl, startUrl, allowedOrigin) => {
    expect(config(load({ KIOSK_PORTAL_URL: portalUrl }))).toMatchObject({ startUrl, allowedOrigin });
  });

  it.each([
    [
      'http://portal.example.com',
      'KIOSK_PORTAL_URL: "http://portal.example.com" must use https (plain http is allowed only for localhost and 127.0.0.1)',
    ],
    ['http://192.168.1.10:3000', 'must use https'],
    ['ftp://portal.example.com', 'must use https'],
    ['javascript:alert(1)', 'must use https'],
    ['portal.example.com', '"portal.example.com" is not an absolute URL (expected e.g. https://portal.example.com)'],
    ['https://user:pw@portal.example.com', 'KIOSK_PORTAL_URL: must not contain a user name or password'],
    ['https://portal.example.com/?clinic=1', 'must not contain a query (?) or fragment (#)'],
    ['https://portal.example.com/#kiosk', 'must not contain a query (?) or fragment (#)'],
  ])('refuses KIOSK_PORTAL_URL=%j with a clear message', (portalUrl, message) => {
    const lines = problems(load({ KIOSK_PORTAL_URL: portalUrl }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
    expect(lines[0]).toMatch(/^- KIOSK_PORTAL_URL/);
  });

  it('names the file and the field for a bad provisioning file, one line per problem', () => {
    const file = JSON.stringify({ portalUrl: 'http://portal.example.com', clinicSlug: 'North Sydney', portalURL: 'typo' });
    const lines = problems(load({}, { [SYSTEM_FILE]: file }));
    expect(lines).toEqual([
      `- ${SYSTEM_FILE} portalUrl: "http://portal.example.com" must use https (plain http is allowed only for localhost and 127.0.0.1)`,
      `- ${SYSTEM_FILE} clinicSlug: must be lower-case letters and digits joined by single hyphens, e.g. "north-sydney"`,
      expect.stringMatching(new RegExp(`^- ${SYSTEM_FILE}: .*portalURL`)),
    ]);
  });

  it('reports a missing portalUrl', () => {
    expect(problems(load({}, { [SYSTEM_FILE]: '{"clinicSlug":"a"}' }))).toEqual([
      expect.stringMatching(new RegExp(`^- ${SYSTEM_FILE} portalUrl: `)),
    ]);
  });

  it('reports a file that is not JSON', () => {
    expect(problems(load({}, { [SYSTEM_FILE]: '{ portalUrl: https://x }' }))).toEqual([
      expect.stringMatching(new RegExp(`^- ${SYSTEM_FILE}: is not valid JSON \\(`)),
    ]);
  });

  it('reports a file that exists but cannot be read', () => {
    const result = loadKioskConfig({
      env: {},
      platform: 'linux',
      userDataDir: USER_DATA,
      readTextFile: () => {
        throw new Error('EACCES: permission denied');
      },
    });
    expect(problems(result)).toEqual([`- ${SYSTEM_FILE}: cannot be read (EACCES: permission denied)`]);
  });

  it('reports a KIOSK_CONFIG_FILE that does not exist instead of silently using the default', () => {
    expect(problems(load({ KIOSK_CONFIG_FILE: '/srv/missing.json' }))).toEqual(['- KIOSK_CONFIG_FILE: /srv/missing.json does not exist']);
  });

  it('takes the Sentry DSN from KIOSK_SENTRY_DSN and refuses a malformed one', () => {
    expect(config(load({ KIOSK_SENTRY_DSN: 'https://abc@o1.ingest.sentry.io/42' })).sentryDsn).toBe('https://abc@o1.ingest.sentry.io/42');
    expect(config(load({ KIOSK_SENTRY_DSN: '   ' })).sentryDsn).toBeNull();
    expect(problems(load({ KIOSK_SENTRY_DSN: 'abc123' }))).toEqual([
      '- KIOSK_SENTRY_DSN: must be a Sentry DSN URL such as https://key@o0.ingest.sentry.io/1',
    ]);
  });

  it('collects every problem at once', () => {
    expect(
      problems(load({ KIOSK_PORTAL_URL: 'http://x.example.com', KIOSK_SENTRY_DSN: 'nope', KIOSK_CONFIG_FILE: '/nope.json' })),
    ).toHaveLength(3);
  });
});

describe('formatConfigProblems', () => {
  it('is a readable message for the error box', () => {
    expect(formatConfigProblems(['- KIOSK_PORTAL_URL: bad'])).toBe(
      'The kiosk configuration is invalid:\n- KIOSK_PORTAL_URL: bad\nSee resources/kiosk/README.md (provisioning).',
    );
  });
});

describe('systemProvisioningPath', () => {
  it('is an admin-only location on each platform', () => {
    expect(systemProvisioningPath('linux', {})).toBe('/etc/patient-portal-kiosk/kiosk.json');
    expect(systemProvisioningPath('win32', { ProgramData: 'D:\\ProgramData' })).toBe('D:\\ProgramData\\PatientPortalKiosk\\kiosk.json');
    expect(systemProvisioningPath('win32', {})).toBe('C:\\ProgramData\\PatientPortalKiosk\\kiosk.json');
    expect(systemProvisioningPath('darwin', {})).toBe('/Library/Application Support/PatientPortalKiosk/kiosk.json');
  });
});

describe('resources/kiosk/kiosk.sample.json', () => {
  const samplePath = path.resolve(import.meta.dirname, '../../resources/kiosk/kiosk.sample.json');
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('is a valid provisioning file', () => {
    const parsed = KioskProvisioningSchema.safeParse(JSON.parse(readFileSync(samplePath, 'utf8')));
    expect(parsed.success).toBe(true);
  });

  it('works as a real file on disk through KIOSK_CONFIG_FILE', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'kiosk-config-'));
    const file = path.join(dir, 'kiosk.json');
    writeFileSync(file, readFileSync(samplePath));
    const result = loadKioskConfig({
      env: { KIOSK_CONFIG_FILE: file },
      platform: 'linux',
      userDataDir: dir,
      readTextFile: (filePath) => {
        try {
          return readFileSync(filePath, 'utf8');
        } catch {
          return null;
        }
      },
    });
    expect(config(result)).toMatchObject({
      startUrl: 'https://portal.example-radiology.com.au/kiosk?kioskMode=true',
      clinicSlug: 'north-sydney',
    });
  });
});
