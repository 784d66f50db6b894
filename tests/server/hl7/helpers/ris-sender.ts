import Client, { HL7_2_7, type Message } from 'node-hl7-client';

/**
 * The RIS's sending end in the tests: node-hl7-client (written by others) builds HL7 v2.7 messages
 * and sends them over MLLP to the portal's listener, and reads the ACK that comes back.
 */

export interface RisHeader {
  type: string;
  event: string;
  structure: string;
  controlId: string;
  /** MSH-11; default P. */
  processingId?: 'P' | 'T' | 'D';
}

/** A message with the RIS's MSH; add segments with `addSegment` and `set`. */
export function risMessage(header: RisHeader): Message {
  return new HL7_2_7()
    .buildMSH({
      msh_3: 'ACME-RIS',
      msh_4: 'ACME RADIOLOGY',
      msh_5: 'RADIOLOGY-PORTAL',
      msh_9_1: header.type,
      msh_9_2: header.event,
      msh_9_3: header.structure,
      msh_10: header.controlId,
      msh_11_1: header.processingId ?? 'P',
    })
    .toMessage();
}

/** Adds a segment with these fields (1-based, raw HL7 text: components with ^). */
export function addSegment(message: Message, name: string, fields: Record<number, string | undefined>): void {
  const segment = message.addSegment(name);
  for (const [index, value] of Object.entries(fields)) if (value !== undefined) segment.set(index, value);
}

export interface RisAck {
  code: string;
  about: string;
  errorCode: string;
  location: string;
  text: string;
  raw: string;
}

/** Sends one message on a connection of its own and answers the ACK, read with node-hl7-client. */
export async function sendFromRis(port: number, message: Message, timeoutMs = 10_000): Promise<RisAck> {
  const client = new Client({ host: '127.0.0.1', version: '2.7' } as ConstructorParameters<typeof Client>[0]);
  let connection: ReturnType<Client['createConnection']> | undefined;
  try {
    const ack = await new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no ACK from the portal')), timeoutMs);
      const opened = client.createConnection(
        { port, maxConnectionAttempts: 1 } as Parameters<Client['createConnection']>[0],
        async (response) => {
          clearTimeout(timer);
          resolve(response.getMessage());
        },
      );
      connection = opened;
      // Sent once connected: a message handed over while the connection is still opening can be left unsent.
      opened.on('connect', () => void opened.sendMessage(message).catch(reject));
    });
    return {
      code: ack.get('MSA.1').toString(),
      about: ack.get('MSA.2').toString(),
      errorCode: ack.get('ERR.3.1').toString(),
      location: ack.get('ERR.2').toString(),
      text: ack.get('ERR.8').toString() || ack.get('MSA.3').toString(),
      raw: ack.toString(),
    };
  } finally {
    await connection?.close().catch(() => undefined);
  }
}
