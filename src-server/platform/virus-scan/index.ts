import { createReadStream } from 'node:fs';
import { connect, type Socket } from 'node:net';

export type ScanVerdict = { status: 'clean' } | { status: 'infected'; signature: string } | { status: 'unavailable'; reason: string };

/** Virus scanning of stored uploads (docs/rules/attachments.md#virus-scanning). */
export interface VirusScanner {
  readonly enabled: boolean;
  scanFile(path: string): Promise<ScanVerdict>;
  /** True when the scanner answers. */
  ping(): Promise<boolean>;
}

export const noVirusScanner: VirusScanner = {
  enabled: false,
  async scanFile() {
    return { status: 'clean' };
  },
  async ping() {
    return true;
  },
};

/** CLAMAV_SOCKET: a unix socket path or tcp://host:port; null when not set. Throws naming what is wrong. */
export function parseVirusScanSettings(env: NodeJS.ProcessEnv): { socket: string } | null {
  const socket = env.CLAMAV_SOCKET?.trim() ?? '';
  if (socket === '') return null;
  if (socket.startsWith('tcp://')) {
    const match = /^tcp:\/\/([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(socket);
    if (match === null || Number(match[2]) < 1 || Number(match[2]) > 65535) {
      throw new Error('CLAMAV_SOCKET must be a socket path or tcp://host:port');
    }
    return { socket };
  }
  if (!socket.startsWith('/')) throw new Error('CLAMAV_SOCKET must be an absolute socket path or tcp://host:port');
  return { socket };
}

function openSocket(address: string): Socket {
  const tcp = /^tcp:\/\/\[?([^\]]+)\]?:(\d+)$/.exec(address);
  return tcp === null ? connect({ path: address }) : connect({ host: tcp[1], port: Number(tcp[2]) });
}

/** Sends one clamd command (null-terminated "z" form), optionally followed by a file as INSTREAM chunks; answers the reply. */
function clamdExchange(address: string, command: string, timeoutMs: number, filePath?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = openSocket(address);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error === null) resolve(Buffer.concat(chunks).toString('utf8').replace(/\0/g, '').trim());
      else reject(error);
    };
    socket.setTimeout(timeoutMs, () => finish(new Error('clamd timed out')));
    socket.on('error', (error) => finish(error));
    socket.on('data', (data) => chunks.push(data));
    socket.on('end', () => finish(null));
    socket.on('connect', () => {
      socket.write(`z${command}\0`);
      if (filePath === undefined) return;
      const file = createReadStream(filePath, { highWaterMark: 64 * 1024 });
      file.on('error', (error) => finish(error));
      file.on('data', (data) => {
        const chunk = typeof data === 'string' ? Buffer.from(data) : data;
        const length = Buffer.alloc(4);
        length.writeUInt32BE(chunk.length, 0);
        if (!socket.write(Buffer.concat([length, chunk]))) {
          file.pause();
          socket.once('drain', () => file.resume());
        }
      });
      file.on('end', () => socket.write(Buffer.alloc(4)));
    });
  });
}

/**
 * ClamAV's daemon over its socket (INSTREAM: the file is streamed, so clamd needs no access to
 * our files). Any failure to reach it answers 'unavailable': the caller quarantines (fails closed).
 */
export function createClamdScanner(options: { socket: string; timeoutMs?: number }): VirusScanner {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return {
    enabled: true,
    async scanFile(path) {
      let reply: string;
      try {
        reply = await clamdExchange(options.socket, 'INSTREAM', timeoutMs, path);
      } catch (error) {
        return { status: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
      }
      // "stream: OK", "stream: <signature> FOUND", or "... ERROR" (e.g. the size limit).
      if (/^stream: OK$/.test(reply)) return { status: 'clean' };
      const found = /^stream: (.+) FOUND$/.exec(reply);
      if (found !== null) return { status: 'infected', signature: found[1] ?? 'unknown' };
      return { status: 'unavailable', reason: reply.slice(0, 200) || 'no answer' };
    },
    async ping() {
      try {
        return (await clamdExchange(options.socket, 'PING', Math.min(timeoutMs, 5000))) === 'PONG';
      } catch {
        return false;
      }
    },
  };
}

/** The scanner the configuration names: ClamAV when CLAMAV_SOCKET is set, else none. */
export function configuredScanner(config: { clamavSocket: string | null }): VirusScanner {
  return config.clamavSocket === null ? noVirusScanner : createClamdScanner({ socket: config.clamavSocket });
}
