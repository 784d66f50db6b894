import { CLINIC_COLUMNS, type ClinicColumnsRow } from '../../db/clinic-columns';
import type { Queryable } from '../../db/connection';

/** SQL only (docs/server.md#module-shape): the provider configuration, overlays, images, clinics. */

export type ProviderRow = {
  app_config: unknown;
  radiology_config: unknown;
  body_figure_config: unknown;
  integration_config: unknown;
  theme_config: unknown;
  environment_config: unknown;
  terms_html: string;
  embedding_origins: string[];
};

export type SecuritySourcesRow = {
  embedding_origins: string[];
  dsn: string | null;
  tile_url: string | null;
  /** Analytics (GA4) or tracking (GTM) is on with an id. */
  analytics: boolean;
  chat_script_url: string | null;
};

export type ImageRow = {
  content_type: string;
  content: Uint8Array;
  sha256: string;
};

export type ContactClinicRow = ClinicColumnsRow & {
  /** [{ weekday, opens: 'HH:MM', closes: 'HH:MM' }] aggregated in SQL. */
  opening_hours: unknown;
};

export function createConfigRepository(db: Queryable) {
  return {
    async findProvider(tx: Queryable = db): Promise<ProviderRow | null> {
      const rows = await tx.query<ProviderRow>(
        `select app_config, radiology_config, body_figure_config, integration_config, theme_config,
                environment_config, terms_html, embedding_origins
           from provider where id = 1`,
      );
      return rows[0] ?? null;
    },

    async findTermsHtml(tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ terms_html: string }>('select terms_html from provider where id = 1');
      return rows[0]?.terms_html ?? null;
    },

    /** Just what the security headers need, kept small because it is read on a timer. */
    async findSecuritySources(tx: Queryable = db): Promise<SecuritySourcesRow | null> {
      const rows = await tx.query<SecuritySourcesRow>(
        `select embedding_origins, integration_config ->> 'errorReportingDsn' as dsn,
                radiology_config -> 'map' ->> 'tileUrl' as tile_url,
                (coalesce((app_config ->> 'analyticsEnabled')::boolean, false) and coalesce(app_config ->> 'analyticsId', '') <> '')
                  or (coalesce((app_config ->> 'trackingEnabled')::boolean, false) and coalesce(app_config ->> 'trackingId', '') <> '')
                  as analytics,
                integration_config -> 'chatService' ->> 'scriptUrl' as chat_script_url
           from provider where id = 1`,
      );
      return rows[0] ?? null;
    },

    async findTranslations(locale: string, tx: Queryable = db): Promise<unknown> {
      const rows = await tx.query<{ resources: unknown }>('select resources from translation_overlay where locale = $1', [locale]);
      return rows[0]?.resources ?? null;
    },

    async findImage(name: string, tx: Queryable = db): Promise<ImageRow | null> {
      const rows = await tx.query<ImageRow>('select content_type, content, sha256 from application_image where name = $1', [name]);
      return rows[0] ?? null;
    },

    /** Every clinic with its region and opening hours, in one query. */
    async listContactClinics(tx: Queryable = db): Promise<ContactClinicRow[]> {
      return tx.query<ContactClinicRow>(
        `select ${CLINIC_COLUMNS},
                coalesce((
                  select json_agg(json_build_object(
                           'weekday', h.weekday::int,
                           'opens', to_char(h.opens, 'HH24:MI'),
                           'closes', to_char(h.closes, 'HH24:MI'))
                         order by h.weekday, h.opens)
                    from clinic_opening_hours h where h.clinic_id = c.id
                ), '[]'::json) as opening_hours
           from clinic c
           join region r on r.id = c.region_id
          order by r.position, r.name, c.position, c.name`,
      );
    },
  };
}

export type ConfigRepository = ReturnType<typeof createConfigRepository>;
