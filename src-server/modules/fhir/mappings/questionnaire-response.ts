import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import type { Model } from 'survey-core';
import { loadModel } from '../../questionnaires/public';
import type { AnswerRow } from '../patients-repository';
import { surveyItems } from './survey-answers';
import { PORTAL_SYSTEM } from './systems';

/** The canonical URL a questionnaire of the provider's goes by. */
export function questionnaireUrl(slug: string): string {
  return `${PORTAL_SYSTEM}/Questionnaire/${slug}`;
}

/** One survey-core model per questionnaire for a page of answers (building one takes milliseconds). */
export type ModelCache = Map<string, Model>;

/**
 * A questionnaire answer given for a booking or booking request as an R4 QuestionnaireResponse
 * (docs/integration/fhir.md#questionnaireresponse). The appointments it was given for are named in
 * an extension: R4's QuestionnaireResponse has no element that references an Appointment.
 */
export function toQuestionnaireResponse(row: AnswerRow, models: ModelCache = new Map()): QuestionnaireResponse {
  let model = models.get(row.questionnaire_slug);
  if (model === undefined) {
    model = loadModel(row.questionnaire_json);
    models.set(row.questionnaire_slug, model);
  }
  const item = surveyItems(model, row.result);
  return {
    resourceType: 'QuestionnaireResponse',
    id: row.id,
    ...(row.appointment_ids.length === 0
      ? {}
      : {
          extension: row.appointment_ids.map((id) => ({
            url: `${PORTAL_SYSTEM}/StructureDefinition/appointment`,
            valueReference: { reference: `Appointment/${id}` },
          })),
        }),
    questionnaire: questionnaireUrl(row.questionnaire_slug),
    status: 'completed',
    subject: { reference: `Patient/${row.patient_id}` },
    authored: new Date(row.saved_at).toISOString(),
    ...(item.length === 0 ? {} : { item }),
  };
}
