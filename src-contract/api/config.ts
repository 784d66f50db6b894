import { z } from 'zod';
import { parseBannerPositionCss } from '../shell/banner-position';
import { ClinicFieldsSchema, LinkSchema, TimeOfDaySchema } from './common';
import { FALLBACK_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from './locales';

export { FALLBACK_LOCALE, SUPPORTED_LOCALES, type SupportedLocale };

/**
 * What the web shell reads at start (docs/rules/shell.md#configuration). Every schema here is the
 * web-safe subset: secrets (SMTP credentials, embedding origins, keys) never appear.
 */

/** How MSAL talks to the authority (its ProtocolMode values). */
export const IDENTITY_PROTOCOL_MODES = ['AAD', 'OIDC'] as const;
export type IdentityProtocolMode = (typeof IDENTITY_PROTOCOL_MODES)[number];

export const SupportedLocaleSchema = z.enum(SUPPORTED_LOCALES);

/** A navigation target: an external URL when configured, otherwise the internal page. */
export const NavigationLinksSchema = z.object({
  home: LinkSchema.nullable(),
  externalHome: LinkSchema.nullable(),
  about: LinkSchema.nullable(),
  contact: LinkSchema.nullable(),
  terms: LinkSchema.nullable(),
  privacy: LinkSchema.nullable(),
  login: LinkSchema.nullable(),
});
export type NavigationLinks = z.infer<typeof NavigationLinksSchema>;

const CssColorSchema = z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'expected a hex colour such as #1d4ed8');

/**
 * The app config's questionnaire styling (docs/rules/questionnaires.md#look): what differs from the
 * provider's theme inside a questionnaire. Mapped to SurveyJS's theme variables, never raw CSS.
 */
export const QuestionnaireThemeSchema = z
  .object({
    colorPrimary: CssColorSchema.optional(),
    colorText: CssColorSchema.optional(),
    colorBackground: CssColorSchema.optional(),
    fontFamily: z
      .string()
      .min(1)
      .max(300)
      .regex(/^[^;{}<>]*$/, 'a font list, without ; { } < >')
      .optional(),
    /** Base font size in CSS px. */
    fontSize: z.number().int().min(12).max(24).optional(),
    borderRadius: z.number().int().min(0).max(24).optional(),
  })
  .strict();
export type QuestionnaireTheme = z.infer<typeof QuestionnaireThemeSchema>;

export const AppConfigSchema = z.object({
  locale: z.string().min(2).max(10),
  metaTitle: z.string().max(200).nullable(),
  description: z.string().max(500).nullable(),
  keywords: z.string().max(500).nullable(),
  socialDescription: z.string().max(500).nullable(),
  searchVerificationId: z.string().max(200).nullable(),
  /** Google Analytics 4 (gtag.js), loaded only after the visitor's consent (docs/rules/analytics.md). */
  analyticsEnabled: z.boolean(),
  analyticsId: z
    .string()
    .regex(/^G-[A-Z0-9]{4,20}$/, 'a GA4 measurement id such as G-ABC123DEF4')
    .nullable(),
  /** Google Tag Manager (gtm.js), loaded only after the visitor's consent. */
  trackingEnabled: z.boolean(),
  trackingId: z
    .string()
    .regex(/^GTM-[A-Z0-9]{4,12}$/, 'a Tag Manager container id such as GTM-ABC1234')
    .nullable(),
  /** The provider's own CSS for questionnaires (its styling), put into the page with its CSP nonce. */
  questionnaireCss: z.string().max(20000).nullable(),
  /** Questionnaire styling over the theme's (colours, font, corners); absent: the theme's. */
  questionnaireTheme: QuestionnaireThemeSchema.nullable().optional(),
  kioskNoActivitySeconds: z.number().int().min(10).max(3600),
  /** Kiosk check-in asks the booking's FEEDBACK questionnaire first when it is not answered (giveFeedback). */
  giveFeedback: z.boolean().default(false),
  keepAliveEnabled: z.boolean(),
  keepAliveIntervalSeconds: z.number().int().min(30).max(86400),
  showLinkToAdminPanel: z.boolean(),
  versionOnPatientPortalEnabled: z.boolean(),
  version: z.string(),
  versionHash: z.string(),
  referrerReportQualityFeedbackEnabled: z.boolean(),
  referrerReportQualityFeedbackRedirectUrl: LinkSchema.nullable(),
  bookingRequestsDownloadReferralEnabled: z.boolean(),
  /**
   * Staff sign-in with MSAL (docs/identity.md): the portal's client id and the authority URL with
   * tenant. The server's IDENTITY_* settings (or the local demo provider) replace what is stored.
   */
  identityClientId: z.string().max(200).nullable(),
  identityAuthority: LinkSchema.nullable(),
  /** The API scope the access token is asked for, e.g. api://<client id>/access_as_user. */
  identityScope: z.string().max(300).nullable().default(null),
  /** AAD for Microsoft Entra ID; OIDC for any other OpenID Connect provider (the demo one). */
  identityProtocolMode: z.enum(IDENTITY_PROTOCOL_MODES).default('AAD'),
  /** Closable banner at the top of every page (stacking order 1500); sanitised HTML. */
  bannerEnabled: z.boolean(),
  bannerHtml: z.string().max(5000).nullable(),
  /** Optional header message in the desktop navigation. */
  headerMessage: z.string().max(500).nullable(),
  patientPortalBackgroundEnabled: z.boolean(),
  otpRequired: z.boolean(),
  otpResendSeconds: z.number().int().min(1).max(600),
  /** The share dialog's note length (docs/rules/results.md#share-dialog-web); absent: DEFAULT_SHARE_NOTE_MAX_LENGTH (150). */
  shareNoteMaxLength: z.number().int().min(1).max(1000).optional(),
  navigation: NavigationLinksSchema,
});
export type AppConfig = z.infer<typeof AppConfigSchema>;

/** The placeholders a tile URL template must carry (Leaflet's). */
const TILE_PLACEHOLDERS = ['{z}', '{x}', '{y}'] as const;

/**
 * The clinic map's tiles (docs/rules/booking.md#the-clinic-list-and-map). The
 * API key is public by nature (the browser puts it in every tile URL); it is substituted for
 * `{apiKey}` in the template. Absent (or mapUiEnabled off): no map, the list alone.
 */
export const MapTilesSchema = z
  .object({
    /** A Leaflet template over http(s), e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; may use {s}, {r} and {apiKey}. */
    tileUrl: z
      .string()
      .max(500)
      .refine((value) => TILE_PLACEHOLDERS.every((part) => value.includes(part)), 'must contain {z}, {x} and {y}')
      .refine((value) => /^https?:\/\/[^/{}]+\//.test(value), 'must be an http(s) URL with a fixed host'),
    /** Who the tiles come from (required by most tile licences); plain text or HTML the server sanitises. */
    attribution: z.string().min(1).max(1000),
    apiKey: z.string().min(1).max(200).nullable(),
    maxZoom: z.number().int().min(1).max(22),
  })
  .strict();
export type MapTiles = z.infer<typeof MapTilesSchema>;

/** The map's zoom on a chosen clinic and after a reset (docs/rules/booking.md#the-clinic-list-and-map). */
export const MAP_CLINIC_ZOOM = 16;
export const MAP_RESET_ZOOM = 13;

export const RadiologyConfigSchema = z.object({
  name: z.string().min(1).max(100),
  longName: z.string().min(1).max(200),
  /** Sanitised HTML for the About page. */
  about: z.string().max(50000),
  /** Sanitised HTML for the Contact page. */
  contact: z.string().max(50000),
  aboutUrl: LinkSchema.nullable(),
  contactUrl: LinkSchema.nullable(),
  termsAndConditionsUrl: LinkSchema.nullable(),
  privacyPolicyUrl: LinkSchema.nullable(),
  confirmationHeaderUrl: LinkSchema.nullable(),
  showMenuOnConfirmationPage: z.boolean(),
  showCustomHeaderAndFooter: z.boolean(),
  /** Sanitised HTML that replaces the footer when showCustomHeaderAndFooter is on. */
  customFooter: z.string().max(20000).nullable(),
  showBrandingLogo: z.boolean(),
  /** Where the banner sits: whitelisted declarations only (src-contract/shell/banner-position.ts), never raw CSS. */
  bannerPositionCss: z
    .string()
    .max(200)
    .nullable()
    .superRefine((value, context) => {
      const result = value === null ? null : parseBannerPositionCss(value);
      if (result?.ok === false) context.addIssue({ code: 'custom', message: result.problem });
    }),
  closeBanner: z.boolean(),
  mapUiEnabled: z.boolean(),
  /** The map's tiles; without them no map is drawn (the clinic list stays). */
  map: MapTilesSchema.optional(),
  showUnableToLocateWindow: z.boolean(),
  weekStartsTodayEnabled: z.boolean(),
  code: z.string().min(1).max(40),
  domainAdmin: LinkSchema.nullable(),
});
export type RadiologyConfig = z.infer<typeof RadiologyConfigSchema>;

export const BodyPartStyleSchema = z.object({
  fill: CssColorSchema.optional(),
  stroke: CssColorSchema.optional(),
  opacity: z.number().min(0).max(1).optional(),
});

export const BodyFigureConfigSchema = z.object({
  gradientColors: z.array(CssColorSchema).min(2).max(5),
  hoverColor: CssColorSchema,
  hoverTransitionMs: z.number().int().min(0).max(5000),
  bodyPartStyles: z.record(z.string(), BodyPartStyleSchema),
});
export type BodyFigureConfig = z.infer<typeof BodyFigureConfigSchema>;

/**
 * The provider's chat service (docs/rules/chat.md#the-providers-chat-service): its script, loaded
 * from an https address the CSP then allows, with the environment and deployment it belongs to.
 */
export const ChatServiceConfigSchema = z.strictObject({
  scriptUrl: z.url({ protocol: /^https$/, message: 'scriptUrl must be an https address' }).max(500),
  environment: z.string().regex(/^[A-Za-z0-9._-]{1,60}$/, 'environment: 1 to 60 letters, digits, dots, dashes or underscores'),
  deploymentId: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'deploymentId: 1 to 100 letters, digits, dots, dashes or underscores'),
});
export type ChatServiceConfig = z.infer<typeof ChatServiceConfigSchema>;

export const IntegrationConfigSchema = z.object({
  /** Error-reporting DSN; null turns error reporting off. */
  errorReportingDsn: z.string().url().nullable(),
  errorReportingEnvironment: z.string().max(50),
  /** null: no provider chat service; the built-in assistant answers instead (docs/rules/chat.md). */
  chatService: ChatServiceConfigSchema.nullable().default(null),
});
export type IntegrationConfig = z.infer<typeof IntegrationConfigSchema>;

export const ThemeConfigSchema = z.object({
  colorPrimary: CssColorSchema,
  colorText: CssColorSchema,
  colorBackground: CssColorSchema,
  colorLink: CssColorSchema,
  colorHeaderBackground: CssColorSchema,
  colorHeaderText: CssColorSchema,
  colorFooterBackground: CssColorSchema,
  colorFooterText: CssColorSchema,
  fontFamily: z.string().min(1).max(300),
  borderRadius: z.number().int().min(0).max(24),
});
export type ThemeConfig = z.infer<typeof ThemeConfigSchema>;

export const BANNER_CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export const EnvironmentConfigSchema = z.object({
  /** Active environment profile names, e.g. ["staging"]. */
  profiles: z.array(z.string().min(1).max(40)),
  production: z.boolean(),
  readOnly: z.boolean(),
  bannerCorner: z.enum(BANNER_CORNERS),
});
export type EnvironmentConfig = z.infer<typeof EnvironmentConfigSchema>;

/** Everything the shell needs before the first render, in one answer. */
export const BootstrapConfigSchema = z.object({
  app: AppConfigSchema,
  radiology: RadiologyConfigSchema,
  bodyFigure: BodyFigureConfigSchema,
  integration: IntegrationConfigSchema,
  theme: ThemeConfigSchema,
  environment: EnvironmentConfigSchema,
});
export type BootstrapConfig = z.infer<typeof BootstrapConfigSchema>;

export { RegionSchema, type Region } from './common';

export const OpeningHoursSchema = z.object({
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: z.number().int().min(1).max(7),
  opens: TimeOfDaySchema,
  closes: TimeOfDaySchema,
});
export type OpeningHours = z.infer<typeof OpeningHoursSchema>;

/** A clinic on the contact page: the clinic's fields with its e-mail and opening hours. */
export const ContactClinicSchema = ClinicFieldsSchema.extend({
  email: z.string().nullable(),
  openingHours: z.array(OpeningHoursSchema),
});
export type ContactClinic = z.infer<typeof ContactClinicSchema>;

/** GET /api/config/contact */
export const ContactResponseSchema = z.object({ clinics: z.array(ContactClinicSchema) });
export type ContactResponse = z.infer<typeof ContactResponseSchema>;

/** GET /api/assets/translations?lang=… : a flat or nested i18next resource overlay. */
export const TranslationOverlaySchema = z.record(z.string(), z.unknown());
export type TranslationOverlay = z.infer<typeof TranslationOverlaySchema>;

/** Images served under GET /api/assets/application/{name}. */
export const APPLICATION_IMAGES = [
  'favicon',
  'confirmation_header',
  'check_in_header',
  'header_tablet',
  'header',
  'image_viewer_banner',
  'patient_portal_background',
  'logo',
  'branding_logo',
] as const;
export type ApplicationImage = (typeof APPLICATION_IMAGES)[number];
