import { z } from 'zod';
import { InstantSchema } from './booking';
import { IMAGE_STATES, RepositorySourceSchema } from './image-viewer';
import { multiLineText, singleLineText } from './text';

export { IMAGE_STATES, type ImageState } from './image-viewer';

/**
 * The referring doctor's quick report (docs/rules/referrers.md#quick-report): the page
 * /referrer/quick-report?imsec=…&repositorySource=… reads the report the referrer imsec names,
 * and asks for the study's images to be generated when the viewer has none yet.
 */

/** The imsec in a query: a signed link (src-server/platform/signed-links MAX_TOKEN_LENGTH). */
export const ImsecQuerySchema = z.strictObject({ imsec: singleLineText().min(1).max(1024) });

export const ReferrerReportSchema = z.object({
  accessionNumber: z.string(),
  examName: z.string(),
  clinicName: z.string(),
  startsAt: InstantSchema,
  timeZone: z.string(),
  patient: z.object({ firstName: z.string(), lastName: z.string(), dateOfBirth: z.string() }),
  referrerName: z.string(),
  reportText: z.string(),
  reportedAt: InstantSchema,
  images: z.enum(IMAGE_STATES),
  /** The provider's PACS portal (the header's open-PACS link), when configured. */
  pacsUrl: z.string().nullable(),
});
export type ReferrerReport = z.infer<typeof ReferrerReportSchema>;

/** POST /api/image_viewer/generate: the spec's query, plus the imsec that lets the caller ask. */
export const ImageGenerateQuerySchema = z.strictObject({
  imsec: singleLineText().min(1).max(1024),
  accessionNumber: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'The accession number is 1 to 64 letters, digits, dots, hyphens or underscores.'),
  repositorySource: RepositorySourceSchema,
  repositorySourceId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'The repository source id is 1 to 128 letters, digits, dots, colons, hyphens or underscores.')
    .optional(),
});
export type ImageGenerateQuery = z.infer<typeof ImageGenerateQuerySchema>;

export const ImageGenerateAnswerSchema = z.object({ images: z.enum(IMAGE_STATES) });
export type ImageGenerateAnswer = z.infer<typeof ImageGenerateAnswerSchema>;

/** The RIS/PACS reports the generated study (POST /api/integration/results/{accessionNumber}/images). */
export const ImagesGeneratedSchema = z.union([
  z.strictObject({
    studyInstanceUid: z
      .string()
      .max(64)
      .regex(/^[0-9]+(\.[0-9]+)*$/, 'The StudyInstanceUID is digits separated by dots, at most 64 characters.'),
  }),
  z.strictObject({ failure: multiLineText().trim().min(1).max(500) }),
]);
export type ImagesGenerated = z.infer<typeof ImagesGeneratedSchema>;

export const AccessionParamsSchema = z.strictObject({ accessionNumber: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/) });

/** The quick report page's polling: every 2 s, for at most 2 minutes, then the generation error. */
export const IMAGE_GENERATION_POLL_MS = 2_000;
export const IMAGE_GENERATION_WAIT_MS = 120_000;
