import { readFileSync } from 'node:fs';
import { CatalogueSchema, type Catalogue } from '@contract/api/booking';
import { NOTHING_DONE, preparationText } from '@contract/api/preparation';
import { DemoExamsFileSchema } from '../../../../src-server/db/seed/demo-provider-schema';

/** The demo provider's exams.json as the catalogue endpoint serves it (modality ids are its codes here). */
export function demoCatalogue(): Catalogue {
  const file = DemoExamsFileSchema.parse(JSON.parse(readFileSync('resources/demo-provider/exams.json', 'utf8')));
  const names = new Map(file.modalities.map((modality) => [modality.code, modality.name]));
  return CatalogueSchema.parse({
    modalities: file.modalities.map((modality) => ({ id: modality.code, slug: modality.code.toLowerCase(), name: modality.name })),
    bodyParts: file.bodyParts,
    exams: file.exams.map((exam) => ({
      slug: exam.slug,
      name: exam.name,
      modalityId: exam.modalityCode,
      modalityName: names.get(exam.modalityCode),
      priority: exam.priority,
      examCode: exam.examCode,
      examNotes: null,
      notes: exam.notes,
      showBookingRequestInfoModal: exam.enquiryOnly,
      enquiryOnly: exam.enquiryOnly,
      bodyPartSlugs: exam.bodyPartSlugs,
      durationMinutes: exam.durationMinutes,
      medicareRequired: exam.medicareRequired,
      // The catalogue's text before booking, as the seed derives it from the parts.
      preparationNotes: preparationText(exam.preparationNotes, NOTHING_DONE),
      searchTerms: exam.searchTerms,
    })),
    searchSynonyms: file.searchSynonyms,
  });
}
