// Types of scripts/cluster.mjs for the TypeScript that imports it (tests/server/cluster/).
import type { ChildProcess } from 'node:child_process';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}
export interface PortalServer {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  exited: Promise<Exit>;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}
export interface Nginx {
  port: number;
  url: string;
  child: ChildProcess;
  exited: Promise<Exit>;
  errorLog(): string;
  stop(): Promise<void>;
}
export interface Cluster {
  url: string;
  nginx: Nginx;
  servers: PortalServer[];
  folder: string;
  stop(): Promise<void>;
}
export function nginxBinary(): string;
export function clusterUnavailable(): string | null;
export function databaseProblem(env: Record<string, string | undefined>): string | null;
export function freePort(): Promise<number>;
export function renderNginxConfig(options: { prefix: string; listen: string; upstreams: string[] }): string;
export function startPortalServer(options: {
  name: string;
  port: number;
  env: Record<string, string | undefined>;
  onLine: (name: string, line: string) => void;
  timeoutMs?: number;
}): Promise<PortalServer>;
export function startCluster(options?: {
  servers?: number;
  port?: number;
  env?: Record<string, string | undefined>;
  onLine?: (name: string, line: string) => void;
}): Promise<Cluster>;
export function ensureClusterBuilt(): Promise<void>;
