import type { ChildProcess } from "node:child_process";

export class ProvisionError extends Error {}
export interface Provisioned {
  databaseServerUrl: string;
  redisUrl: string;
  children: ChildProcess[];
  stop(): Promise<void>;
}
export function provision(env?: NodeJS.ProcessEnv, opts?: { detached?: boolean }): Promise<Provisioned>;
export function dataRootOf(env?: NodeJS.ProcessEnv): string;
export function localPorts(env?: NodeJS.ProcessEnv): { postgres: number; redis: number };
export function postgresClusterDir(dataRoot?: string): string;
export function withDatabase(url: string, name: string): string;
export function ensureDatabase(serverUrl: string, name: string): Promise<void>;
export function dropDatabasesWithPrefix(serverUrl: string, prefix: string): Promise<number>;
export function ensureDependencies(): void;
export function startOwnPostgres(
  children: ChildProcess[],
  dataRoot?: string,
  preferredPort?: number,
  detached?: boolean,
): Promise<string>;
export function startOwnRedis(
  children: ChildProcess[],
  dataRoot?: string,
  preferredPort?: number,
  detached?: boolean,
): Promise<string>;
export function stopChildren(children: ChildProcess[]): Promise<void>;
export function postgresBinDir(): string | undefined;
export function dropRolesWithPrefix(serverUrl: string, prefix: string): Promise<number>;
export function deleteRedisKeysWithPrefix(redisUrl: string, prefix: string): Promise<number>;
export function ensurePrometheus(): boolean;
