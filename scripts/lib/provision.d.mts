import type { ChildProcess } from "node:child_process";

export class ProvisionError extends Error {}
export interface Provisioned {
  databaseServerUrl: string;
  redisUrl: string;
  children: ChildProcess[];
  stop(): void;
}
export function provision(env?: NodeJS.ProcessEnv): Promise<Provisioned>;
export function withDatabase(url: string, name: string): string;
export function ensureDatabase(serverUrl: string, name: string): Promise<void>;
export function dropDatabasesWithPrefix(serverUrl: string, prefix: string): Promise<number>;
export function ensureDependencies(): void;
export function startOwnPostgres(children: ChildProcess[], dataRoot?: string): Promise<string>;
export function startOwnRedis(children: ChildProcess[], dataRoot?: string): Promise<string>;
export function ensurePrometheus(): boolean;
