import type { Hl7Message } from '@medplum/core';
import { componentText } from '../../platform/hl7/hl7-read';
import { appointmentIdAt, missingField } from './refusal';

/**
 * What an SIU from the RIS says (docs/integration/hl7.md#siu-s13-s14-s15-and-s17): SCH-1 the
 * portal's appointment id (as the portal's SIU^S12 gave it), SCH-6 why (its text, else its code);
 * for a move (S13, S14) the new start: AIS-4, else AIL-6, else SCH-11.4.
 */

export interface SiuCancellation {
  appointmentId: string;
  reason: string | null;
}

export interface SiuMove extends SiuCancellation {
  /** The new start as written; read in the clinic's zone when it has no offset. */
  startText: string;
  location: string;
}

export function readSiuMove(message: Hl7Message): SiuMove {
  const change = readSiuCancellation(message);
  const candidates: Array<[string, string]> = [
    [componentText(message.getSegment('AIS'), 4), 'AIS^1^4'],
    [componentText(message.getSegment('AIL'), 6), 'AIL^1^6'],
    [componentText(message.getSegment('SCH'), 11, 4), 'SCH^1^11'],
  ];
  const found = candidates.find(([text]) => text !== '');
  if (found === undefined) throw missingField('AIS^1^4', 'the new start of the appointment');
  return { ...change, startText: found[0], location: found[1] };
}

export function readSiuCancellation(message: Hl7Message): SiuCancellation {
  const sch = message.getSegment('SCH');
  if (sch === undefined) throw missingField('SCH', 'the schedule activity');
  const id = componentText(sch, 1);
  if (id === '') throw missingField('SCH^1^1', "the portal's appointment id, as SCH-1 of its SIU^S12");
  const reason = (componentText(sch, 6, 2) || componentText(sch, 6, 1)).slice(0, 500);
  return { appointmentId: appointmentIdAt('SCH^1^1', id), reason: reason === '' ? null : reason };
}
