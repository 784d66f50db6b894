import type * as MedplumCore from '@medplum/core';
import type { Hl7Message } from '@medplum/core';
import type * as MedplumHl7 from '@medplum/hl7';
import { lazyRequire } from '../lazy-require';

/** Loaded with the first message, not at start (@medplum/core is large; most servers send no HL7). */
const medplumCore = lazyRequire<typeof MedplumCore>('@medplum/core');
const medplumHl7 = lazyRequire<typeof MedplumHl7>('@medplum/hl7');

/**
 * Sends one HL7 v2 message to the RIS over MLLP (@medplum/hl7's client: the framing and the
 * socket) and reads its acknowledgement, original mode (HL7 v2.5.1 2.9.2): MSA-1 `AA` (or `CA`) is
 * delivered; `AE` is an application error the RIS may get past (the queue tries again, then
 * keeps it as failed); `AR` is a refusal no retry changes; an ACK for another control id, no ACK
 * within the timeout, or no connection are transport failures (tried again with back-off).
 * A connection per message: a handful a minute, and nothing to go stale when the RIS restarts.
 */

export interface Hl7Destination {
  host: string;
  port: number;
  /** Default 5 s. */
  connectTimeoutMs?: number;
  /** How long to wait for the ACK; default 10 s. */
  ackTimeoutMs?: number;
}

/** A failed send, without personal data: 'ack_AE', 'ack_AR', 'ack_timeout', 'ECONNREFUSED', … */
export class Hl7SendError extends Error {
  constructor(
    readonly code: string,
    readonly options: { permanent: boolean; transport: boolean },
  ) {
    super(`HL7: ${code}`);
    this.name = 'Hl7SendError';
  }
}

function networkCode(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code)) return code;
  const message = error instanceof Error ? error.message : '';
  return /timeout/i.test(message) ? 'ack_timeout' : 'connection_failed';
}

/** The ACK's verdict on the message with this control id. */
export function readAck(ack: Hl7Message, controlId: string): void {
  const code = ack.getSegment('MSA')?.getField(1).toString() ?? '';
  const about = ack.getSegment('MSA')?.getField(2).toString() ?? '';
  if (about !== controlId) throw new Hl7SendError('ack_other_message', { permanent: false, transport: true });
  if (code === 'AA' || code === 'CA') return;
  if (code === 'AR' || code === 'CR') throw new Hl7SendError(`ack_${code}`, { permanent: true, transport: false });
  if (code === 'AE' || code === 'CE') throw new Hl7SendError(`ack_${code}`, { permanent: false, transport: false });
  throw new Hl7SendError('ack_unreadable', { permanent: false, transport: true });
}

export async function sendHl7(destination: Hl7Destination, text: string): Promise<void> {
  const message = medplumCore().Hl7Message.parse(text);
  const controlId = message.header.getField(10).toString();
  const client = new (medplumHl7().Hl7Client)({
    host: destination.host,
    port: destination.port,
    connectTimeout: destination.connectTimeoutMs ?? 5_000,
  });
  let ack: Hl7Message;
  try {
    ack = await client.sendAndWait(message, { timeoutMs: destination.ackTimeoutMs ?? 10_000 });
  } catch (error) {
    throw new Hl7SendError(networkCode(error), { permanent: false, transport: true });
  } finally {
    await client.close().catch(() => undefined);
  }
  readAck(ack, controlId);
}
