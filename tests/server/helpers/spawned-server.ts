import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * The real entry point, as `npm start` runs it: `node --import tsx src-server/main.ts` in a child
 * process, with its environment, output and exit code.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningServer {
  child: ChildProcess;
  output: () => string;
  errors: () => string;
  exit: Promise<number | null>;
}

export function startServer(env: Record<string, string>): RunningServer {
  const base = { ...process.env };
  // Each test decides the database; an inherited DATABASE_URL must not leak in.
  delete base.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/main.ts'], {
    cwd: ROOT,
    env: { ...base, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => stdout, errors: () => stderr, exit };
}

export async function waitFor(server: RunningServer, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!pattern.test(server.output())) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited (${server.child.exitCode}) before ${pattern}: ${server.output()}\n${server.errors()}`);
    }
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${pattern}: ${server.output()}\n${server.errors()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
