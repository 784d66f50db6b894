import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Message } from 'node-hl7-client';
import { afterEach } from 'vitest';

/**
 * The RIS end of the tests: simple-hl7's MLLP server (written by others) in a child process
 * (simple-hl7-ris.mjs), answering AA, AE, AR or nothing. What it receives is read back with a
 * second library no one here wrote either (node-hl7-client's parser, which decodes HL7 escapes).
 */

const SCRIPT = fileURLToPath(new URL('./simple-hl7-ris.mjs', import.meta.url));

export type AckMode = 'AA' | 'AE' | 'AR' | 'silent';

export interface ReceivedMessage {
  type: string;
  controlId: string;
  /** The message as node-hl7-client parses it. */
  parsed: Message;
}

export interface RisPeer {
  port: number;
  received: ReceivedMessage[];
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function untilListening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the RIS peer does not listen on ${port}`);
}

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** Starts the RIS on `port` (a free one when not given); resolves once it listens. */
export async function startRis(mode: AckMode, port?: number, received: ReceivedMessage[] = []): Promise<RisPeer> {
  const listenOn = port ?? (await freePort());
  const child = spawn(process.execPath, [SCRIPT, String(listenOn), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  running.add(child);
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const entry = JSON.parse(line) as { listening?: number; type?: string; controlId?: string; raw?: string };
        if (entry.listening !== undefined) resolve();
        else received.push({ type: entry.type ?? '', controlId: entry.controlId ?? '', parsed: new Message({ text: entry.raw ?? '' }) });
      }
    });
    child.once('exit', (code) => reject(new Error(`the RIS peer ended (${code})`)));
  });
  // simple-hl7's start() does not say when it listens: the port taking a connection does.
  await untilListening(listenOn);
  return {
    port: listenOn,
    received,
    stop: async () => {
      running.delete(child);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
