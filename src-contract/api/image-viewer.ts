import { z } from 'zod';
import { singleLineText } from './text';

/**
 * The image viewer link (docs/rules/results.md#image-viewer). The imsec is a signed
 * link (src-server/platform/signed-links): GET /api/image_viewer answers where the browser goes.
 * ACTIVE: open `url` (the viewer); EXPIRED: go to `redirectUrl` (/deny with resultsExpired);
 * preference PACS: go to `pacsUrl` (the provider's own PACS portal).
 */

export const IMAGE_VIEWER_LINK_STATUSES = ['ACTIVE', 'EXPIRED'] as const;
export const IMAGE_VIEWER_PREFERENCES = ['VIEWER', 'PACS'] as const;

/** The signed link's largest length (src-server/platform/signed-links MAX_TOKEN_LENGTH). */
const ImsecSchema = singleLineText().min(1).max(1024);

/** A repository source names which PACS the study is in; the portal has one unless configured. */
export const RepositorySourceSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'The repository source is 1 to 32 letters, digits, hyphens or underscores.');

export const ImageViewerQuerySchema = z.strictObject({
  input: ImsecSchema,
  repositorySource: RepositorySourceSchema.optional(),
});
export type ImageViewerQuery = z.infer<typeof ImageViewerQuerySchema>;

/**
 * AVAILABLE: the viewer can open the study; NOT_GENERATED: the viewer has no images yet and none
 * were asked for; GENERATING: asked for, not ready; FAILED: the PACS could not make them.
 */
export const IMAGE_STATES = ['AVAILABLE', 'NOT_GENERATED', 'GENERATING', 'FAILED'] as const;
export type ImageState = (typeof IMAGE_STATES)[number];

export const ImageViewerResponseSchema = z.object({
  /** Where the images open (the viewer, with its own short-lived access); null when none can be made. */
  url: z.string().nullable(),
  imageViewerLinkStatus: z.enum(IMAGE_VIEWER_LINK_STATUSES),
  /** Where an EXPIRED link sends the browser. */
  redirectUrl: z.string().nullable(),
  preference: z.enum(IMAGE_VIEWER_PREFERENCES),
  /** The provider's PACS portal, when preference is PACS. */
  pacsUrl: z.string().nullable(),
  /** The images' state for an ACTIVE link (a page waiting for generated images polls this). */
  images: z.enum(IMAGE_STATES).optional(),
});
export type ImageViewerResponse = z.infer<typeof ImageViewerResponseSchema>;

/** POST /api/image_viewer/direct: straight to the viewer (username and email name who opens it, for the audit). */
export const ImageViewerDirectRequestSchema = z.strictObject({
  input: ImsecSchema,
  username: singleLineText().trim().max(200).optional(),
  email: singleLineText().trim().max(254).optional(),
});
export type ImageViewerDirectRequest = z.infer<typeof ImageViewerDirectRequestSchema>;

export const ImageViewerDirectResponseSchema = z.object({ url: z.string() });
export type ImageViewerDirectResponse = z.infer<typeof ImageViewerDirectResponseSchema>;

/** The message keys the portal shows for image viewer failures (docs/rules/results.md#patient-result-page-web). */
export const IMAGE_VIEWER_MESSAGES = {
  noUrl: 'message.error_generating_images_url',
  noAccess: 'message.user_not_have_access_to_images',
} as const;

/**
 * The demo image viewer (the stand-in for a provider's PACS viewer, /demo-viewer): the viewer URL
 * carries a signed link of this purpose and audience whose subject is the StudyInstanceUID.
 */
export const DEMO_VIEWER_LINK = { purpose: 'demo-viewer.study', audience: 'demo-pacs' } as const;

export const DemoStudySchema = z.object({
  studyInstanceUid: z.string(),
  description: z.string(),
  images: z.array(z.object({ index: z.number().int().min(0), title: z.string(), width: z.number().int(), height: z.number().int() })),
});
export type DemoStudy = z.infer<typeof DemoStudySchema>;

/**
 * A referring doctor's imsec (docs/rules/referrers.md): the quick report link in the report-ready
 * mail and on the referrer's report list. Its own audience, so a patient's link never opens the
 * referrer's pages and the other way round; it lives as long as the signed links allow (30 days).
 */
export const REFERRER_IMAGE_LINK = { purpose: 'imsec.view', audience: 'referrer' } as const;
export const REFERRER_IMAGE_LINK_TTL_MS = 30 * 24 * 60 * 60_000;
/** The portal has one PACS unless the provider names others. */
export const DEFAULT_REPOSITORY_SOURCE = 'default';
export const QUICK_REPORT_PATH = '/referrer/quick-report';

/** The referrer's quick report page for an imsec: /referrer/quick-report?imsec=…&repositorySource=… */
export const quickReportPath = (imsec: string, repositorySource: string = DEFAULT_REPOSITORY_SOURCE): string =>
  `${QUICK_REPORT_PATH}?imsec=${encodeURIComponent(imsec)}&repositorySource=${encodeURIComponent(repositorySource)}`;
