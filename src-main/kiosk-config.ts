import path from 'node:path';
import { z } from 'zod';
import { ENROLLMENT_CODE_PATTERN } from '@contract/api/kiosks';
import { SUPPORTED_LOCALES } from '@contract/api/locales';

/** Where the kiosk points when nothing is provisioned: the portal started by `npm start` on the same machine. */
export const DEFAULT_PORTAL_URL = 'http://localhost:3000';
/** The portal's kiosk home: `/kiosk` with `kioskMode=true` (docs/rules/kiosk.md#start-page). */
export const KIOSK_START_PATH = '/kiosk?kioskMode=true';
/** Plain http is tolerated only on the machine itself (development, or a portal served locally). */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

const PortalUrlSchema = z
  .string()
  .trim()
  .min(1, 'is empty')
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not an absolute URL (expected e.g. https://portal.example.com)` });
      return z.NEVER;
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname))) {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" must use https (plain http is allowed only for localhost and 127.0.0.1)`,
      });
      return z.NEVER;
    }
    if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
      return z.NEVER;
    }
    if (url.search !== '' || url.hash !== '') {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" must not contain a query (?) or fragment (#); give the portal's base address only`,
      });
      return z.NEVER;
    }
    // The portal may live under a path prefix; keep it, without the trailing slash, so the start path can be appended.
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  });

/** The provisioning file clinic IT copies onto each kiosk (documented in resources/kiosk/README.md). */
export const KioskProvisioningSchema = z.strictObject({
  /** A free-text note for whoever opens the file; JSON has no comments. */
  $comment: z.string().optional(),
  portalUrl: PortalUrlSchema,
  /** The clinic this kiosk stands in, as the portal's clinic slug (lower-case words joined by hyphens). */
  clinicSlug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters and digits joined by single hyphens, e.g. "north-sydney"')
    .optional(),
  /** The kiosk's locale (Chromium's --lang: navigator.language and Accept-Language), one the portal ships. */
  language: z.enum(SUPPORTED_LOCALES, { message: `must be one of ${SUPPORTED_LOCALES.join(', ')}` }).optional(),
  /** One-time code from the staff kiosk page; removed from the file once it has been used. */
  enrollmentCode: z
    .string()
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(ENROLLMENT_CODE_PATTERN, 'must be the 8-character code from the staff kiosk page, e.g. "7KQ3-M9XD"'))
    .optional(),
  /** Error reporting for the kiosk app itself; KIOSK_SENTRY_DSN overrides it. */
  sentryDsn: z.string().optional(),
  /** Where electron-updater looks for new versions (a generic provider: latest.yml and the installers). */
  updateUrl: z
    .string()
    .refine((value) => parseUrlProtocol(value) === 'https:', 'must be an https address, e.g. "https://updates.example.com/kiosk"')
    .optional(),
  /** The release channel: "stable" unless a kiosk tests early releases ("beta"). */
  updateChannel: z
    .string()
    .regex(/^[a-z]+$/, 'must be lower-case letters, e.g. "stable" or "beta"')
    .optional(),
});
export type KioskProvisioning = z.infer<typeof KioskProvisioningSchema>;

const SentryDsnSchema = z
  .string()
  .trim()
  .refine((value) => /^https?:$/.test(parseUrlProtocol(value)), 'must be a Sentry DSN URL such as https://key@o0.ingest.sentry.io/1');

function parseUrlProtocol(value: string): string {
  try {
    return new URL(value).protocol;
  } catch {
    return '';
  }
}

/** The kiosk's resolved configuration. */
export interface KioskConfig {
  /** Portal base URL, normalised (no trailing slash). */
  portalUrl: string;
  /** The one origin the kiosk may show and answer IPC for. */
  allowedOrigin: string;
  /** What the window loads at start and after every crash. */
  startUrl: string;
  clinicSlug: string | null;
  sentryDsn: string | null;
  /** Where portalUrl came from, for the start-up log line. */
  portalUrlSource: string;
  language: string | null;
  /** The one-time enrollment code, while the provisioning file still holds one. */
  enrollmentCode: string | null;
  /** The provisioning file that was read (rewritten without the code after enrolling), or null. */
  provisioningPath: string | null;
  updateUrl: string | null;
  updateChannel: string;
}

export type KioskConfigResult = { ok: true; config: KioskConfig } | { ok: false; problems: string[] };

/** The environment variables the kiosk reads (the README lists them). */
export interface KioskEnv {
  KIOSK_PORTAL_URL?: string;
  KIOSK_CONFIG_FILE?: string;
  KIOSK_SENTRY_DSN?: string;
  ProgramData?: string;
}

export interface KioskConfigSources {
  env: KioskEnv;
  platform: NodeJS.Platform;
  /** Electron's per-user data directory (app.getPath('userData')). */
  userDataDir: string;
  /** Returns the file's text, or null when it does not exist; throws for any other read error. */
  readTextFile(filePath: string): string | null;
}

/**
 * The machine-wide provisioning file: IT installs it once per kiosk with their usual tooling
 * (it needs admin rights to change, which a patient at the kiosk does not have).
 */
export function systemProvisioningPath(platform: NodeJS.Platform, env: KioskEnv): string {
  if (platform === 'win32') return path.win32.join(env.ProgramData ?? 'C:\\ProgramData', 'PatientPortalKiosk', 'kiosk.json');
  if (platform === 'darwin') return '/Library/Application Support/PatientPortalKiosk/kiosk.json';
  return '/etc/patient-portal-kiosk/kiosk.json';
}

/**
 * Resolves where the kiosk points. Order: `KIOSK_PORTAL_URL` (overrides the file's portalUrl,
 * for testing a kiosk against another portal), then the provisioning file
 * (`KIOSK_CONFIG_FILE`, else the machine-wide path, else `<userData>/kiosk.json`), then
 * {@link DEFAULT_PORTAL_URL}. Pure apart from the injected file reader.
 *
 * @returns the config, or one line per problem, each naming the value and where it came from.
 */
export function loadKioskConfig(sources: KioskConfigSources): KioskConfigResult {
  const { env } = sources;
  const problems: string[] = [];

  let provisioning: KioskProvisioning | null = null;
  let provisioningPath: string | null = null;
  const candidates = env.KIOSK_CONFIG_FILE
    ? [env.KIOSK_CONFIG_FILE]
    : [systemProvisioningPath(sources.platform, env), path.join(sources.userDataDir, 'kiosk.json')];
  for (const candidate of candidates) {
    const read = readProvisioningFile(candidate, sources.readTextFile);
    if (read.kind === 'missing') continue;
    provisioningPath = candidate;
    if (read.kind === 'problems') problems.push(...read.problems);
    else provisioning = read.value;
    break;
  }
  if (env.KIOSK_CONFIG_FILE && provisioningPath === null) {
    problems.push(`- KIOSK_CONFIG_FILE: ${env.KIOSK_CONFIG_FILE} does not exist`);
  }

  let portalUrl: string | null = null;
  let portalUrlSource = 'default';
  const envUrl = env.KIOSK_PORTAL_URL?.trim();
  if (envUrl) {
    const parsed = PortalUrlSchema.safeParse(envUrl);
    if (parsed.success) portalUrl = parsed.data;
    else problems.push(...issueLines('KIOSK_PORTAL_URL', parsed.error));
    portalUrlSource = 'KIOSK_PORTAL_URL';
  } else if (provisioning) {
    portalUrl = provisioning.portalUrl;
    portalUrlSource = provisioningPath ?? 'provisioning file';
  } else if (problems.length === 0) {
    portalUrl = DEFAULT_PORTAL_URL;
  }

  let sentryDsn: string | null = null;
  const envDsn = env.KIOSK_SENTRY_DSN?.trim();
  const fileDsn = provisioning?.sentryDsn?.trim();
  const dsn = envDsn
    ? { value: envDsn, where: 'KIOSK_SENTRY_DSN' }
    : fileDsn
      ? { value: fileDsn, where: `${provisioningPath} sentryDsn` }
      : null;
  if (dsn) {
    const parsed = SentryDsnSchema.safeParse(dsn.value);
    if (parsed.success) sentryDsn = parsed.data;
    else problems.push(...issueLines(dsn.where, parsed.error));
  }

  if (problems.length > 0 || portalUrl === null) return { ok: false, problems };
  return {
    ok: true,
    config: {
      portalUrl,
      allowedOrigin: new URL(portalUrl).origin,
      startUrl: `${portalUrl}${KIOSK_START_PATH}`,
      clinicSlug: provisioning?.clinicSlug ?? null,
      sentryDsn,
      portalUrlSource,
      language: provisioning?.language ?? null,
      enrollmentCode: provisioning?.enrollmentCode ?? null,
      provisioningPath,
      updateUrl: provisioning?.updateUrl ?? null,
      updateChannel: provisioning?.updateChannel ?? 'stable',
    },
  };
}

/** The message shown to clinic IT (error box and log) when the configuration is unusable. */
export function formatConfigProblems(problems: readonly string[]): string {
  return ['The kiosk configuration is invalid:', ...problems, 'See resources/kiosk/README.md (provisioning).'].join('\n');
}

type FileRead = { kind: 'missing' } | { kind: 'problems'; problems: string[] } | { kind: 'ok'; value: KioskProvisioning };

function readProvisioningFile(filePath: string, readTextFile: (filePath: string) => string | null): FileRead {
  let text: string | null;
  try {
    text = readTextFile(filePath);
  } catch (error) {
    return { kind: 'problems', problems: [`- ${filePath}: cannot be read (${error instanceof Error ? error.message : String(error)})`] };
  }
  if (text === null) return { kind: 'missing' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'problems', problems: [`- ${filePath}: is not valid JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  const parsed = KioskProvisioningSchema.safeParse(json);
  if (!parsed.success) return { kind: 'problems', problems: issueLines(filePath, parsed.error) };
  return { kind: 'ok', value: parsed.data };
}

function issueLines(where: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.length > 0 ? ` ${issue.path.join('.')}` : '';
    return `- ${where}${field}: ${issue.message}`;
  });
}
