import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Message } from 'node-hl7-client';
import type { Hl7Message } from '@medplum/core';
import { startMllpListener, type InboundVerdict, type MllpListener } from '../../../src-server/platform/hl7/mllp-listener';

// The portal's MLLP listener on real sockets: only the RIS's addresses are served, a message over
// the size limit or a frame that is not HL7 ends the connection without acting on it, messages on
// one connection are handled one at a time in order, and each ACK (read back with node-hl7-client,
// a parser no one here wrote) says what the handler decided, its text escaped.

const VT = '\u000b';
const FRAME_END = '\u001c\r';
const silent = { warn: () => undefined };

function hl7(controlId: string, extra = ''): string {
  return `MSH|^~\\&|ACME-RIS|ACME|RADIOLOGY-PORTAL||20261201101500||ORU^R01^ORU_R01|${controlId}|P|2.5.1\rPID|1||MRN-1${extra}`;
}

let listener: MllpListener | null = null;
afterEach(async () => {
  await listener?.close();
  listener = null;
});

async function listen(
  handle: (message: Hl7Message) => Promise<InboundVerdict>,
  options: { allowed?: string[]; maxMessageBytes?: number } = {},
) {
  listener = await startMllpListener({
    host: '127.0.0.1',
    port: 0,
    allowedAddresses: options.allowed ?? ['127.0.0.1'],
    handle,
    logger: silent,
    application: 'RADIOLOGY-PORTAL',
    ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
  });
  return listener.port;
}

/** Opens a socket (from `localAddress` when given), writes the frames, and answers the ACKs received until it closes or `expected` arrived. */
function exchange(
  port: number,
  frames: string[],
  options: { expected: number; localAddress?: string },
): Promise<{ acks: Message[]; closed: boolean }> {
  return new Promise((resolve) => {
    const acks: Message[] = [];
    let buffer = '';
    const socket: Socket = connect({
      host: '127.0.0.1',
      port,
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
    });
    const done = (closed: boolean) => {
      socket.destroy();
      resolve({ acks, closed });
    };
    const timer = setTimeout(() => done(false), 3_000);
    socket.on('connect', () => {
      for (const frame of frames) socket.write(`${VT}${frame}${FRAME_END}`);
    });
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf(FRAME_END); end !== -1; end = buffer.indexOf(FRAME_END)) {
        acks.push(new Message({ text: buffer.slice(1, end) }));
        buffer = buffer.slice(end + FRAME_END.length);
      }
      if (acks.length >= options.expected) {
        clearTimeout(timer);
        done(false);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ acks, closed: true });
    });
  });
}

describe('MLLP listener', () => {
  it("answers each message with the handler's verdict: AA, or AE/AR with an ERR naming the code, the field and the text (escaped)", async () => {
    const port = await listen(async (message) =>
      message.header.getField(10).toString() === 'OK1'
        ? { code: 'AA' }
        : { code: 'AE', errorCode: 101, location: 'OBR^1^3', text: 'OBR-3 | the accession number & more is required.' },
    );
    const { acks } = await exchange(port, [hl7('OK1'), hl7('BAD2')], { expected: 2 });
    expect(acks.map((ack) => [ack.get('MSA.1').toString(), ack.get('MSA.2').toString()])).toEqual([
      ['AA', 'OK1'],
      ['AE', 'BAD2'],
    ]);
    const refused = acks[1] as Message;
    expect(refused.get('MSH.3').toString()).toBe('RADIOLOGY-PORTAL');
    expect(refused.get('MSH.5').toString()).toBe('ACME-RIS');
    expect(refused.get('ERR.3.1').toString()).toBe('101');
    expect(refused.get('ERR.8').toString()).toBe('OBR-3 | the accession number & more is required.');
  });

  it('answers AE 207 when the handler fails, and keeps serving', async () => {
    const port = await listen(async (message) => {
      if (message.header.getField(10).toString() === 'BOOM') throw new Error('database went away');
      return { code: 'AA' };
    });
    const { acks } = await exchange(port, [hl7('BOOM'), hl7('AFTER')], { expected: 2 });
    expect(acks.map((ack) => [ack.get('MSA.1').toString(), ack.get('ERR.3.1').toString()])).toEqual([
      ['AE', '207'],
      ['AA', ''],
    ]);
  });

  it('handles the messages of one connection one at a time, in the order they came', async () => {
    const events: string[] = [];
    const port = await listen(async (message) => {
      const id = message.header.getField(10).toString();
      events.push(`start ${id}`);
      await new Promise((resolve) => setTimeout(resolve, id === 'FIRST' ? 150 : 5));
      events.push(`end ${id}`);
      return { code: 'AA' };
    });
    const { acks } = await exchange(port, [hl7('FIRST'), hl7('SECOND'), hl7('THIRD')], { expected: 3 });
    expect(acks.map((ack) => ack.get('MSA.2').toString())).toEqual(['FIRST', 'SECOND', 'THIRD']);
    expect(events).toEqual(['start FIRST', 'end FIRST', 'start SECOND', 'end SECOND', 'start THIRD', 'end THIRD']);
  });

  it('closes a connection from an address not allowed before reading it', async () => {
    let handled = 0;
    const port = await listen(
      async () => {
        handled += 1;
        return { code: 'AA' };
      },
      { allowed: ['127.0.0.1'] },
    );
    // Linux routes all of 127.0.0.0/8 to the loopback: 127.0.0.2 is another peer on this machine.
    const outcome = await exchange(port, [hl7('FROM-ELSEWHERE')], { expected: 1, localAddress: '127.0.0.2' });
    expect(outcome).toEqual({ acks: [], closed: true });
    expect(handled).toBe(0);
  });

  it('ends a connection whose message grows past the limit, or whose frame is not HL7, without acting on it', async () => {
    let handled = 0;
    const port = await listen(
      async () => {
        handled += 1;
        return { code: 'AA' };
      },
      { maxMessageBytes: 2_000 },
    );
    const big = await exchange(port, [hl7('BIG', `\rOBX|1|TX|||${'x'.repeat(5_000)}`)], { expected: 1 });
    expect(big).toEqual({ acks: [], closed: true });
    const junk = await exchange(port, ['GET / HTTP/1.1\r\nHost: portal'], { expected: 1 });
    expect(junk).toEqual({ acks: [], closed: true });
    expect(handled).toBe(0);
    // The listener still serves.
    const { acks } = await exchange(port, [hl7('STILL')], { expected: 1 });
    expect(acks.map((ack) => ack.get('MSA.1').toString())).toEqual(['AA']);
  });
});
