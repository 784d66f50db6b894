import type { FastifyInstance } from 'fastify';
import { fhirScope } from '../../platform/route-access';
import { fhirClientOf } from './access';
import { toAppointment } from './mappings/appointment';
import { FhirError, resourceNotFound } from './outcome';
import type { PatientsRepository } from './patients-repository';
import { FHIR_ID } from './resource-definition';
import { send } from './routes';

/**
 * PATCH /Appointment/<id> with a JSON Patch that cancels it: the one change a RIS makes to an
 * appointment here. `[{"op": "replace", "path": "/status", "value": "cancelled"}]`, and optionally
 * `/cancelationReason` (its text is kept with the change). The provider's cancellation rules apply
 * (appointments/provider-cancel.ts): any time, the patient told, the time free again. Cancelling a
 * cancelled appointment again answers it unchanged.
 */

export const JSON_PATCH = 'application/json-patch+json';

interface PatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

const ONLY_CANCEL =
  'Only a cancellation can be patched: [{"op": "replace", "path": "/status", "value": "cancelled"}], with /cancelationReason if wanted.';

function isOperation(value: unknown): value is PatchOperation {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PatchOperation).op === 'string' &&
    typeof (value as PatchOperation).path === 'string'
  );
}

/** The reason's text of a cancel patch, or null; anything but a cancel is a 422. */
export function cancellationOf(body: unknown): { note: string | null } {
  if (!Array.isArray(body) || body.length === 0 || body.length > 5 || !body.every(isOperation))
    throw new FhirError(400, 'invalid', 'The body must be a JSON Patch (a list of operations).');
  let cancels = false;
  let note: string | null = null;
  for (const operation of body) {
    const setting = operation.op === 'replace' || operation.op === 'add';
    if (setting && operation.path === '/status' && operation.value === 'cancelled') cancels = true;
    else if (setting && operation.path === '/cancelationReason' && typeof operation.value === 'object' && operation.value !== null) {
      const reason = operation.value as { text?: unknown; coding?: Array<{ display?: unknown }> };
      const text = typeof reason.text === 'string' ? reason.text : reason.coding?.[0]?.display;
      note = typeof text === 'string' && text.trim() !== '' ? text.trim().slice(0, 500) : null;
    } else if (operation.op !== 'test') throw new FhirError(422, 'processing', ONLY_CANCEL);
  }
  if (!cancels) throw new FhirError(422, 'processing', ONLY_CANCEL);
  return { note };
}

export function appointmentPatch(deps: { patients: PatientsRepository }) {
  return (fhir: FastifyInstance): void => {
    fhir.addContentTypeParser(JSON_PATCH, { parseAs: 'string' }, fhir.getDefaultJsonParser('error', 'error'));
    fhir.patch(
      '/Appointment/:id',
      {
        config: { access: fhirScope('Appointment', 'write') },
        schema: { tags: ['fhir'], summary: 'FHIR patch of an Appointment: cancels it (scope system/Appointment.u)' },
      },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        if (!FHIR_ID.test(id)) throw new FhirError(400, 'invalid', 'The id is not a FHIR id.');
        const { note } = cancellationOf(request.body);
        const [found] = await deps.patients.appointments({ ids: [id], limit: 1 });
        if (found === undefined) throw resourceNotFound('Appointment');
        await fhir.cancelByProvider(id, { actor: `fhir-client:${fhirClientOf(request)}`, note });
        const [cancelled] = await deps.patients.appointments({ ids: [id], limit: 1 });
        if (cancelled === undefined) throw resourceNotFound('Appointment');
        return send(reply, 200, toAppointment(cancelled));
      },
    );
  };
}
