import type { Provisioned } from "./provision.mjs";

export const LOCAL_DATABASE: string;
export function localEnvironment(
  base?: NodeJS.ProcessEnv,
): Promise<{ infra: Provisioned; env: NodeJS.ProcessEnv }>;
