import type { ChildProcess } from "node:child_process";

export const SERVICE_NAMES: readonly ["leads", "settings", "tracking", "mailer", "conversions", "gateway"];
export interface StackProcess {
  name: string;
  index: number;
  child: ChildProcess;
  url: string;
  port: number;
  /** GET /metrics on the process's own metrics listener (127.0.0.1, METRICS_PORT). */
  metricsUrl: string;
}
export interface Stack {
  url: string;
  urls: Record<string, string[]>;
  env: Record<string, string>;
  processes: StackProcess[];
  restart(name: string, i?: number): Promise<StackProcess>;
  stop(): Promise<void>;
}
export function freePort(): Promise<number>;
export function startStack(opts?: {
  databaseUrl: string;
  redisUrl: string;
  env?: Record<string, string>;
  replicas?: Partial<Record<string, number>>;
  logDir?: string;
  /** How a free port is found (a test hands out a taken one). */
  pickPort?: () => Promise<number>;
}): Promise<Stack>;
