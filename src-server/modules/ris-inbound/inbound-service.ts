import { createHash } from 'node:crypto';
import type { Hl7Message } from '@medplum/core';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { isAppError } from '../../platform/errors';
import { componentText, messageTypeOf, parseHl7Timestamp } from '../../platform/hl7/hl7-read';
import type { InboundVerdict } from '../../platform/hl7/mllp-listener';
import type { CancelByProvider, MoveByProvider } from '../appointments/public';
import { createInboundRepository } from './inbound-repository';
import { createOruDelivery, type OruDeliveryDeps } from './oru-delivery';
import { badField, InboundRefusal, unknownAppointment } from './refusal';
import { readSiuCancellation, readSiuMove } from './siu-changes';
import { createHl7OutboundRepository } from '../../platform/hl7/outbound-repository';

/**
 * What the portal does with a message from the RIS (docs/integration/hl7.md#from-the-ris), and the
 * ACK it answers: an ORU^R01 becomes the patient's result through the results delivery, an
 * SIU^S15 or ^S17 cancels the appointment through the provider's cancellation (the patient is
 * mailed). Every message is logged (hl7_inbound, without its text). One sent again after AA is
 * answered AA and not acted on twice; a control id reused for another message is refused.
 *
 * Original mode (HL7 v2.5.1 2.9.2): AR when the header is not acceptable (message type, event,
 * version, processing id: sending it again will not help); AE when the content is wrong or the
 * portal could not act (with ERR: code, field, what); AA when done.
 */

export interface Hl7InboundDeps extends Omit<OruDeliveryDeps, 'db'> {
  db: Database;
  clock: Clock;
  cancelByProvider: CancelByProvider;
  moveByProvider: MoveByProvider;
  logger: { error: (message: string) => void };
}

type Handler = (message: Hl7Message, sender: string) => Promise<InboundVerdict & { appointmentId?: string }>;

function refused(code: 'AR', errorCode: number, location: string, text: string): InboundVerdict {
  return { code, errorCode, location, text };
}

/** The header's own problems: AR, before anything is read or logged. */
function headerProblem(message: Hl7Message, known: ReadonlySet<string>): InboundVerdict | null {
  const header = message.header;
  const version = header.getComponent(12, 1).trim();
  if (!/^2\.[1-9](\.\d)?$/.test(version))
    return refused('AR', 203, 'MSH^1^12', `HL7 version '${version.slice(0, 10)}' is not taken; send v2.x.`);
  const processing = header.getComponent(11, 1).trim();
  if (processing !== 'P')
    return refused('AR', 202, 'MSH^1^11', `Processing id '${processing.slice(0, 3)}' is not taken here; this portal is production (P).`);
  if (header.getComponent(10, 1).trim() === '') return refused('AR', 101, 'MSH^1^10', 'MSH-10 (the message control id) is required.');
  const type = messageTypeOf(message);
  if (known.has(type)) return null;
  const code = type.split('^')[0] ?? '';
  return [...known].some((entry) => entry.startsWith(`${code}^`))
    ? refused('AR', 201, 'MSH^1^9', `${type} is not taken; from the RIS the portal takes ${[...known].join(', ')}.`)
    : refused('AR', 200, 'MSH^1^9', `${type} is not taken; from the RIS the portal takes ${[...known].join(', ')}.`);
}

/** The message's digest without MSH-7: an interface engine may stamp a resent message with the time it resent it. */
function digestOf(message: Hl7Message): string {
  const [header, ...rest] = message.toString().split(/\r\n?|\n/);
  const fields = (header ?? '').split(message.context.fieldSeparator);
  fields[6] = '';
  return createHash('sha256')
    .update([fields.join(message.context.fieldSeparator), ...rest].join('\r'))
    .digest('hex');
}

/** A portal error as the ACK says it. */
function verdictOfError(error: unknown): InboundVerdict | null {
  if (error instanceof InboundRefusal) return error.verdict;
  if (!isAppError(error)) return null;
  if (error.code === 'slot_taken')
    return { code: 'AE', errorCode: 207, text: 'That time is not free at the clinic; the appointment keeps its time.' };
  // A different report under a stored accession number is the one duplicate key; other conflicts are the record's state.
  const errorCode = error.statusCode === 404 ? 204 : error.code === 'result_conflict' ? 205 : error.statusCode === 400 ? 102 : 207;
  return { code: 'AE', errorCode, text: error.message };
}

export function createHl7Inbound(deps: Hl7InboundDeps) {
  const log = createInboundRepository(deps.db);
  const oru = createOruDelivery(deps);
  const handlers: Record<string, Handler> = {
    'ORU^R01': (message) => oru(message),
    'SIU^S13': move,
    'SIU^S14': move,
    'SIU^S15': cancel,
    'SIU^S17': cancel,
  };
  const appointments = createHl7OutboundRepository(deps.db);

  async function move(message: Hl7Message, sender: string): Promise<InboundVerdict & { appointmentId: string }> {
    const { appointmentId, reason, startText, location } = readSiuMove(message);
    const [facts] = await appointments.facts([appointmentId]);
    if (facts === undefined) throw unknownAppointment('SCH^1^1');
    const startsAt = parseHl7Timestamp(startText, facts.clinic.timeZone);
    if (startsAt === null) throw badField(location, 'The new start is not a date and time (YYYYMMDDHHMM[SS][+ZZZZ]).');
    const outcome = await deps.moveByProvider(appointmentId, { actor: `hl7:${sender}`, startsAt, note: reason });
    return {
      code: 'AA',
      appointmentId,
      text: outcome === 'moved' ? 'Moved; the patient is sent the new time by e-mail.' : 'Already at this time; nothing changed.',
    };
  }
  const known = new Set(Object.keys(handlers));

  async function cancel(message: Hl7Message, sender: string): Promise<InboundVerdict & { appointmentId: string }> {
    const { appointmentId, reason } = readSiuCancellation(message);
    const outcome = await deps.cancelByProvider(appointmentId, { actor: `hl7:${sender}`, note: reason, tellRis: false });
    return {
      code: 'AA',
      appointmentId,
      text: outcome === 'cancelled' ? 'Cancelled; the patient is told by e-mail.' : 'Was cancelled already; nothing changed.',
    };
  }

  return async function handle(message: Hl7Message): Promise<InboundVerdict> {
    const problem = headerProblem(message, known);
    if (problem !== null) return problem;
    const sender = componentText(message.header, 3).slice(0, 180) || '(none)';
    const controlId = componentText(message.header, 10).slice(0, 199);
    const sha256 = digestOf(message);
    const before = await log.find(sender, controlId);
    if (before !== null && before.messageSha256 !== sha256)
      return { code: 'AE', errorCode: 205, location: 'MSH^1^10', text: 'This control id (MSH-10) came before with a different message.' };
    if (before?.ackCode === 'AA') return { code: 'AA', text: `Received before: ${before.outcome}`.slice(0, 300) };

    const type = messageTypeOf(message);
    let verdict: InboundVerdict & { appointmentId?: string };
    try {
      verdict = await (handlers[type] as Handler)(message, sender);
    } catch (error) {
      const known = verdictOfError(error);
      if (known === null)
        deps.logger.error(`[hl7] ${type} ${controlId} from ${sender} failed: ${error instanceof Error ? error.message : String(error)}`);
      verdict = known ?? { code: 'AE', errorCode: 207, text: 'The portal could not act on it now; send it again.' };
    }
    await log.record(
      {
        sendingApplication: sender,
        controlId,
        messageType: type,
        messageSha256: sha256,
        ackCode: verdict.code,
        outcome: [verdict.errorCode, verdict.location, verdict.text].filter(Boolean).join(' '),
        appointmentId: verdict.appointmentId ?? null,
      },
      deps.clock.now(),
    );
    const { appointmentId: _appointmentId, ...ack } = verdict;
    return ack;
  };
}

export type Hl7InboundHandler = ReturnType<typeof createHl7Inbound>;
