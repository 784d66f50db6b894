import type { InboundVerdict } from '../../platform/hl7/mllp-listener';

/**
 * A message the portal will not act on, as its ACK says it: AE with the HL7 error code (table 0357),
 * the field at fault and what was wrong, in words a RIS's operator can act on (never a patient's data).
 */
export class InboundRefusal extends Error {
  constructor(readonly verdict: InboundVerdict & { code: 'AE' | 'AR' }) {
    super(verdict.text);
    this.name = 'InboundRefusal';
  }
}

export function missingField(location: string, what: string): InboundRefusal {
  return new InboundRefusal({ code: 'AE', errorCode: 101, location, text: `${location} (${what}) is required.` });
}

export function badField(location: string, text: string): InboundRefusal {
  return new InboundRefusal({ code: 'AE', errorCode: 102, location, text });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The portal's appointment id as the RIS echoes it (SCH-1 of the portal's SIU^S12), lower-cased; AE 102 when it is not one. */
export function appointmentIdAt(location: string, value: string): string {
  if (!UUID.test(value)) throw badField(location, 'This is not an appointment id the portal gave (SCH-1 of its SIU^S12).');
  return value.toLowerCase();
}

export function unknownAppointment(location: string): InboundRefusal {
  return new InboundRefusal({ code: 'AE', errorCode: 204, location, text: 'No appointment of this portal has this id.' });
}
