import type { Hl7Message } from '@medplum/core';
import { componentText } from '../../platform/hl7/hl7-read';
import { badField, missingField } from './refusal';

/**
 * What an SIU^S15 (cancelled) or SIU^S17 (deleted) from the RIS says (docs/integration/hl7.md#siu-from-the-ris):
 * SCH-1 the portal's appointment id (as the portal's SIU^S12 gave it), SCH-6 why (its text, else its code).
 */

export interface SiuCancellation {
  appointmentId: string;
  reason: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function readSiuCancellation(message: Hl7Message): SiuCancellation {
  const sch = message.getSegment('SCH');
  if (sch === undefined) throw missingField('SCH', 'the schedule activity');
  const id = componentText(sch, 1);
  if (id === '') throw missingField('SCH^1^1', "the portal's appointment id, as SCH-1 of its SIU^S12");
  if (!UUID.test(id)) throw badField('SCH^1^1', 'This is not an appointment id the portal gave (SCH-1 of its SIU^S12).');
  const reason = (componentText(sch, 6, 2) || componentText(sch, 6, 1)).slice(0, 500);
  return { appointmentId: id.toLowerCase(), reason: reason === '' ? null : reason };
}
