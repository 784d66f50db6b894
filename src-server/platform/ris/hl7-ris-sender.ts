import { createHash } from 'node:crypto';
import type { Database } from '../../db/connection';
import type { Hl7Config } from '../../config-hl7';
import { Hl7SendError, sendHl7, type Hl7Destination } from '../hl7/mllp-sender';
import { createHl7OutboundRepository } from '../hl7/outbound-repository';
import { adtMessage } from '../hl7/scheduling-messages';
import { RisSendError, type RisHandoffMessage, type RisSender } from './webhook';

/**
 * The check-in hand-offs as HL7 v2 over MLLP (RIS_CHECK_IN=hl7, docs/integration/hl7.md): the form
 * (check_in.prepare) as ADT^A05, the check-in (check_in.complete) as ADT^A04. The RIS worker keeps
 * its queue, back-off and markCheckedIn; only the wire changes. The message is built at each
 * attempt from the appointment's rows (the hl7 outbox's facts), with a control id derived from
 * the hand-off, so a retry after a lost ACK carries the MSH-10 the RIS has already seen.
 */

const EVENTS = { 'check_in.prepare': 'A05', 'check_in.complete': 'A04' } as const;

/** MSH-10 of a hand-off: 20 of A-Z and 0-9 from its idempotency key (HL7 2.5.1 allows 20; the key is longer). */
export function handoffControlId(idempotencyKey: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...createHash('sha256').update(`ris-handoff:${idempotencyKey}`).digest().subarray(0, 20)]
    .map((byte) => alphabet[byte % 36])
    .join('');
}

export interface Hl7RisSenderOptions {
  db: Database;
  config: Pick<Hl7Config, 'receivingApplication' | 'receivingFacility' | 'sendingFacility'>;
  destination: Hl7Destination;
}

export function createHl7RisSender(options: Hl7RisSenderOptions): RisSender {
  const { db, config, destination } = options;
  const appointments = createHl7OutboundRepository(db);
  return {
    configured: true,
    async send(message: RisHandoffMessage) {
      const [facts] = await appointments.facts([message.appointmentId]);
      // The hand-off's appointment is gone: no retry brings it back.
      if (facts === undefined) throw new RisSendError('appointment_not_found', { permanent: true, transport: false });
      const header = { controlId: handoffControlId(message.idempotencyKey), at: message.queuedAt, ...config };
      const text = adtMessage(EVENTS[message.event], facts, message.queuedAt, header);
      try {
        await sendHl7(destination, text);
      } catch (error) {
        // AE and transport failures are retried, AR is a refusal (mllp-sender.ts classifies them).
        if (error instanceof Hl7SendError) throw new RisSendError(error.code, error.options);
        throw error;
      }
    },
  };
}
