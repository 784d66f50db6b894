import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type * as MedplumHl7 from '@medplum/hl7';
import { lazyRequire } from '../platform/lazy-require';

/**
 * The demo provider's stand-in for a RIS's HL7 v2 interface (docs/integration/hl7.md): an MLLP
 * listener on 127.0.0.1 only, started with the server when HL7_RIS_ADDRESS is unset outside
 * production, that acknowledges every message (AA) with @medplum/hl7's connection. The messages
 * and their status show on the development outbox page (/dev/outbox). It keeps nothing.
 */

const medplumHl7 = lazyRequire<typeof MedplumHl7>('@medplum/hl7');

/** MSH-5 of the messages to this listener. */
export const DEMO_HL7_RIS_APPLICATION = 'DEMO-RIS';

export interface DemoHl7Ris {
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function startDemoHl7Ris(): Promise<DemoHl7Ris> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const connection = new (medplumHl7().Hl7Connection)(socket);
    connection.addEventListener('message', (event: MedplumHl7.Hl7MessageEvent) => connection.send(event.message.buildAck()));
    // A client that goes away mid-message is the client's matter; the demo keeps listening.
    connection.addEventListener('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
