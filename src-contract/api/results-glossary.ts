import { z } from 'zod';

/**
 * The provider's glossary of radiology terms (docs/rules/results.md#glossary): served by
 * GET /api/results-glossary, read by the result pages to explain the words of a report.
 */

/** A term as it is written in reports: letters, spaces, hyphens and apostrophes ("Baker's cyst", "fat-saturated"). */
export const GlossaryTermSchema = z.strictObject({
  term: z
    .string()
    .min(2)
    .max(60)
    .regex(/^[A-Za-z][A-Za-z' -]*[A-Za-z]$/),
  definition: z.string().trim().min(1).max(400),
});

export const GlossarySchema = z.strictObject({
  terms: z.array(GlossaryTermSchema).min(1).max(2000),
});

export type GlossaryTerm = z.infer<typeof GlossaryTermSchema>;
export type Glossary = z.infer<typeof GlossarySchema>;
