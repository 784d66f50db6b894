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
