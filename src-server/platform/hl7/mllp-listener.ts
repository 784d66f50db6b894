import { createServer, isIPv4, type AddressInfo, type Socket } from 'node:net';
import type * as MedplumCore from '@medplum/core';
import type { Hl7Message } from '@medplum/core';
import type * as MedplumHl7 from '@medplum/hl7';
import { lazyRequire } from '../lazy-require';
import { hl7Escape } from './hl7-text';

const medplumCore = lazyRequire<typeof MedplumCore>('@medplum/core');
const medplumHl7 = lazyRequire<typeof MedplumHl7>('@medplum/hl7');

/**
 * The portal's MLLP listener for messages from the provider's RIS (docs/integration/hl7.md#from-the-ris):
 * @medplum/hl7's connection frames and parses; each message goes to `handle`, one at a time per
 * connection (a RIS's cancellation never overtakes the booking it cancels), and its verdict goes
 * back as an original-mode ACK: AA, AE (with an ERR segment naming the HL7 error code and what was
 * wrong) or AR. An ACK is sent only after the handler has finished, so AA means stored.
 *
 * MLLP has no authentication of its own: only the addresses in `allowedAddresses` may connect
 * (others are closed before a byte is read), a message may not exceed `maxMessageBytes`, and an
 * idle connection is closed after `idleTimeoutMs`.
 */

export type AckCode = 'AA' | 'AE' | 'AR';

export interface InboundVerdict {
  code: AckCode;
  /** HL7 table 0357: 100 segment sequence, 101 required field missing, 102 data type, 103 table value, 200 unsupported message type, 201 unsupported event, 202 unsupported processing id, 203 unsupported version, 204 unknown key, 205 duplicate key, 207 internal error. */
  errorCode?: number;
  /** For the RIS's operators: what was wrong (no personal data). */
  text?: string;
  /** The segment and field at fault, e.g. `OBR^1^3`. */
  location?: string;
}

export interface MllpListenerOptions {
  host: string;
  /** 0: any free port (tests, the demo). */
  port: number;
  /** Peers that may connect (IPv4 or IPv6 text, as the socket reports them; `127.0.0.1` also matches `::ffff:127.0.0.1`). */
  allowedAddresses: readonly string[];
  handle: (message: Hl7Message) => Promise<InboundVerdict>;
  logger: { warn: (message: string) => void };
  /** Default 16 MB: a report PDF inside an ORU. */
  maxMessageBytes?: number;
  /** Default 5 minutes. */
  idleTimeoutMs?: number;
  /** Default 16. */
  maxConnections?: number;
  /** MSH-3 of the ACKs. */
  application: string;
}

export interface MllpListener {
  host: string;
  port: number;
  close(): Promise<void>;
}

const ERROR_NAMES: Record<number, string> = {
  100: 'Segment sequence error',
  101: 'Required field missing',
  102: 'Data type error',
  103: 'Table value not found',
  200: 'Unsupported message type',
  201: 'Unsupported event code',
  203: 'Unsupported version id',
  204: 'Unknown key identifier',
  205: 'Duplicate key identifier',
  202: 'Unsupported processing id',
  207: 'Application internal error',
};

/** The ACK of a message: MSH from the message's own (sender and receiver swapped), MSA with the text, ERR when not AA. */
export function buildAck(message: Hl7Message, verdict: InboundVerdict, application: string): Hl7Message {
  const core = medplumCore();
  const ack = message.buildAck({ ackCode: verdict.code });
  ack.header.setField(3, hl7Escape(application));
  const msa = ack.getSegment('MSA');
  if (verdict.text !== undefined) msa?.setField(3, hl7Escape(verdict.text.slice(0, 80)));
  if (verdict.code !== 'AA') {
    const code = verdict.errorCode ?? 207;
    const location = verdict.location ?? '';
    const err = `ERR||${location}|${code}^${ERROR_NAMES[code] ?? 'Error'}^HL70357|E||||${hl7Escape(verdict.text ?? '')}`;
    ack.segments.push(core.Hl7Segment.parse(err, message.context));
  }
  return ack;
}

function allowed(socket: Socket, addresses: ReadonlySet<string>): boolean {
  const remote = socket.remoteAddress ?? '';
  const plain = remote.startsWith('::ffff:') && isIPv4(remote.slice(7)) ? remote.slice(7) : remote;
  return addresses.has(remote) || addresses.has(plain);
}

const FRAME_END = Buffer.from([0x1c, 0x0d]);

/** Counts the bytes of each framed message as they arrive; calls `tooLarge` once one exceeds the limit. */
function messageSizeGuard(maxBytes: number, tooLarge: () => void): (chunk: Buffer) => void {
  let pending = 0;
  let over = false;
  const exceeded = () => {
    if (!over) tooLarge();
    over = true;
  };
  return (chunk) => {
    let start = 0;
    for (let end = chunk.indexOf(FRAME_END, start); end !== -1; end = chunk.indexOf(FRAME_END, start)) {
      if (pending + end - start > maxBytes) return exceeded();
      pending = 0;
      start = end + FRAME_END.length;
    }
    pending += chunk.length - start;
    if (pending > maxBytes) exceeded();
  };
}

export async function startMllpListener(options: MllpListenerOptions): Promise<MllpListener> {
  const maxBytes = options.maxMessageBytes ?? 16 * 1024 * 1024;
  const addresses = new Set(options.allowedAddresses);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    if (!allowed(socket, addresses)) {
      options.logger.warn(`[hl7] a connection from ${socket.remoteAddress ?? 'an unknown address'} was refused: not in HL7_LISTEN_ALLOW`);
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setTimeout(options.idleTimeoutMs ?? 5 * 60_000, () => socket.destroy());
    // Registered before the connection's own reader, so a message over the limit ends the connection before it is read.
    const countBytes = messageSizeGuard(maxBytes, () => {
      options.logger.warn(`[hl7] a message over ${maxBytes} bytes from ${socket.remoteAddress ?? '?'}: connection closed`);
      socket.destroy();
    });
    socket.on('data', countBytes);
    const connection = new (medplumHl7().Hl7Connection)(socket);
    // One message at a time on a connection, in the order they came.
    let queue = Promise.resolve();
    connection.addEventListener('message', (event: MedplumHl7.Hl7MessageEvent) => {
      const message = event.message;
      queue = queue.then(async () => {
        if (socket.destroyed) return;
        const verdict = await options
          .handle(message)
          .catch((): InboundVerdict => ({ code: 'AE', errorCode: 207, text: 'The portal could not take the message now; send it again.' }));
        if (!connection.isClosed()) connection.send(buildAck(message, verdict, options.application));
      });
    });
    // A frame that is not an HL7 message cannot be acknowledged: the connection ends, the sender's retry starts clean.
    connection.addEventListener('error', () => socket.destroy());
  });
  server.maxConnections = options.maxConnections ?? 16;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    host: options.host,
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
