import type { z } from 'zod';
import {
  AppConfigSchema,
  BodyFigureConfigSchema,
  EnvironmentConfigSchema,
  IntegrationConfigSchema,
  OpeningHoursSchema,
  RadiologyConfigSchema,
  ThemeConfigSchema,
  TranslationOverlaySchema,
  type ApplicationImage,
  type BootstrapConfig,
  type ContactResponse,
  type TranslationOverlay,
} from '@contract/api/config';
import type { Config } from '../../config';
import { clinicFields } from '../../db/clinic-columns';
import type { Clock } from '../../platform/clock';
import { serviceUnavailable } from '../../platform/errors';
import { sanitizeConfiguredHtml, sanitizeOptionalHtml } from '../../platform/html-sanitizer';
import type { BrowserSignInSettings } from '../../config-identity';
import type { SecurityPolicySources } from '../../platform/plugins/security-headers';
import type { ConfigRepository, ProviderRow } from './repository';

/**
 * The configuration the shell reads (docs/rules/shell.md#configuration), from the provider row. Every part is
 * validated against its contract schema on the way out, so a bad row is a logged 500 rather
 * than a web app crashing on a missing field, and every HTML string is sanitised here.
 */

export class StoredConfigError extends Error {
  constructor(part: string, issues: string) {
    super(`The stored provider configuration (${part}) does not match its schema: ${issues}`);
    this.name = 'StoredConfigError';
  }
}

function parsePart<S extends z.ZodType>(part: string, schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new StoredConfigError(
      part,
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; '),
    );
  }
  return result.data;
}

const StoredAppConfigSchema = AppConfigSchema.omit({ version: true, versionHash: true });
const OpeningHoursListSchema = OpeningHoursSchema.array();

export interface ApplicationImageFile {
  contentType: string;
  content: Buffer;
  etag: string;
}

export interface ConfigServiceDeps {
  repository: ConfigRepository;
  config: Pick<Config, 'appVersion' | 'appVersionHash' | 'embedOrigins'> & {
    /** MAP_TILE_URL: replaces the provider's tile URL (absent in tests that build the service alone). */
    mapTileUrl?: string | null;
    imageViewer?: Pick<Config['imageViewer'], 'urlTemplate'>;
  };
  clock: Clock;
  /** How long the security header sources are reused before the database is asked again. */
  securitySourcesTtlMs?: number;
  onSecuritySourcesError?: (error: unknown) => void;
  /** Staff sign-in as the server is configured (IDENTITY_*): replaces the stored identity* fields. */
  browserSignIn?: BrowserSignInSettings;
}

function originOf(url: string | null): string | null {
  if (url === null || url === '') return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The chat service's script origin for the CSP: https only, as ChatServiceConfigSchema requires. */
export function chatServiceOriginOf(scriptUrl: string | null): string | null {
  const origin = originOf(scriptUrl);
  return origin !== null && origin.startsWith('https://') ? origin : null;
}

/** The origin the map's tiles load from (for img-src): the template with its placeholders filled. */
export function tileOrigin(template: string | null): string | null {
  return originOf(template?.replaceAll(/\{\w+\}/g, 'x') ?? null);
}

export function createConfigService(deps: ConfigServiceDeps) {
  const { repository, config, clock, browserSignIn } = deps;
  // MSAL reads the authority's metadata and tokens (connect) and renews silently in a hidden frame.
  const identityOrigin = originOf(browserSignIn?.authority ?? null);
  const identitySources = identityOrigin === null ? [] : [identityOrigin];
  // The referrer's quick report embeds the configured PACS viewer in a frame.
  const viewerOrigin = originOf(config.imageViewer?.urlTemplate?.replaceAll(/\{\w+\}/g, 'x') ?? null);
  const frameSources = [...identitySources, ...(viewerOrigin === null ? [] : [viewerOrigin])];
  const ttlMs = deps.securitySourcesTtlMs ?? 30_000;
  const mapTileUrl = config.mapTileUrl ?? null;
  const imageSourcesFor = (storedTileUrl: string | null): string[] => {
    const origin = tileOrigin(mapTileUrl ?? storedTileUrl);
    return origin === null ? [] : [origin];
  };

  async function provider(): Promise<ProviderRow> {
    const row = await repository.findProvider();
    if (row === null) throw serviceUnavailable('The portal has no provider configuration yet.');
    return row;
  }

  function toBootstrap(row: ProviderRow): BootstrapConfig {
    const app = parsePart('app_config', StoredAppConfigSchema, row.app_config);
    const radiology = parsePart('radiology_config', RadiologyConfigSchema, row.radiology_config);
    return {
      app: {
        ...app,
        bannerHtml: sanitizeOptionalHtml(app.bannerHtml),
        version: config.appVersion,
        versionHash: config.appVersionHash,
        ...(browserSignIn === undefined
          ? {}
          : {
              identityClientId: browserSignIn.clientId,
              identityAuthority: browserSignIn.authority,
              identityScope: browserSignIn.scope,
              identityProtocolMode: browserSignIn.protocolMode,
            }),
      },
      radiology: {
        ...radiology,
        about: sanitizeConfiguredHtml(radiology.about),
        contact: sanitizeConfiguredHtml(radiology.contact),
        customFooter: sanitizeOptionalHtml(radiology.customFooter),
        ...(radiology.map === undefined
          ? {}
          : {
              map: {
                ...radiology.map,
                tileUrl: mapTileUrl ?? radiology.map.tileUrl,
                // Leaflet writes the attribution as HTML: only sanitised markup reaches it.
                attribution: sanitizeConfiguredHtml(radiology.map.attribution),
              },
            }),
      },
      bodyFigure: parsePart('body_figure_config', BodyFigureConfigSchema, row.body_figure_config),
      integration: parsePart('integration_config', IntegrationConfigSchema, row.integration_config),
      theme: parsePart('theme_config', ThemeConfigSchema, row.theme_config),
      environment: parsePart('environment_config', EnvironmentConfigSchema, row.environment_config),
    };
  }

  // The security headers need the embedding origins on every response; reading them from the
  // database each time would cost a query per asset. They are cached for a short time, so an
  // admin change reaches every server process within ttlMs.
  let cachedSources: { value: SecurityPolicySources; loadedAt: number } | null = null;
  let loading: Promise<SecurityPolicySources> | null = null;
  const fallbackSources: SecurityPolicySources = {
    frameAncestors: [...config.embedOrigins],
    connectSources: identitySources,
    frameSources,
    imageSources: imageSourcesFor(null),
  };

  async function loadSecuritySources(): Promise<SecurityPolicySources> {
    try {
      const row = await repository.findSecuritySources();
      const frameAncestors = [...new Set([...(row?.embedding_origins ?? []), ...config.embedOrigins])];
      const dsnOrigin = originOf(row?.dsn ?? null);
      const value: SecurityPolicySources = {
        frameAncestors,
        connectSources: [...(dsnOrigin === null ? [] : [dsnOrigin]), ...identitySources],
        frameSources,
        imageSources: imageSourcesFor(row?.tile_url ?? null),
        analytics: row?.analytics === true,
        chatServiceOrigin: chatServiceOriginOf(row?.chat_script_url ?? null),
      };
      cachedSources = { value, loadedAt: clock.now().getTime() };
      return value;
    } catch (error) {
      deps.onSecuritySourcesError?.(error);
      // Database down: keep the last known policy (or the environment's) rather than failing
      // every response; the next request tries again.
      return cachedSources?.value ?? fallbackSources;
    } finally {
      loading = null;
    }
  }

  return {
    async getBootstrap(): Promise<BootstrapConfig> {
      return toBootstrap(await provider());
    },

    async getContact(): Promise<ContactResponse> {
      const rows = await repository.listContactClinics();
      return {
        clinics: rows.map((row) => ({
          ...clinicFields(row),
          email: row.email,
          openingHours: parsePart(`opening hours of ${row.slug}`, OpeningHoursListSchema, row.opening_hours),
        })),
      };
    },

    async getTermsHtml(): Promise<string> {
      const html = await repository.findTermsHtml();
      if (html === null) throw serviceUnavailable('The portal has no provider configuration yet.');
      return sanitizeConfiguredHtml(html);
    },

    /** The overlay for exactly this locale; {} when the provider has none. */
    async getTranslations(locale: string): Promise<TranslationOverlay> {
      const resources = await repository.findTranslations(locale);
      if (resources === null) return {};
      return parsePart(`translations for ${locale}`, TranslationOverlaySchema, resources);
    },

    async getImage(name: ApplicationImage): Promise<ApplicationImageFile | null> {
      const row = await repository.findImage(name);
      if (row === null) return null;
      const content = Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength);
      return { contentType: row.content_type, content, etag: `"${row.sha256}"` };
    },

    /** Never rejects: the headers plugin calls it for every response. */
    securitySources(): Promise<SecurityPolicySources> {
      const now = clock.now().getTime();
      if (cachedSources !== null && now - cachedSources.loadedAt < ttlMs) return Promise.resolve(cachedSources.value);
      loading ??= loadSecuritySources();
      return loading;
    },

    /** Forget the cached header sources (after a configuration change). */
    invalidateSecuritySources(): void {
      cachedSources = null;
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;
