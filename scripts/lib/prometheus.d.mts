export const RULES_FILE: string;
export function hasPrometheus(): boolean;
export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}
export interface RunningPrometheus {
  url: string;
  targets(): Promise<{ service: string; address: string; health: string; error: string }[]>;
  query(expr: string): Promise<PromSample[]>;
  rules(): Promise<
    { type: "recording" | "alerting"; name: string; health: string; lastError?: string; state?: string }[]
  >;
  stop(): Promise<void>;
}
export function startPrometheus(opts: {
  targets: { service: string; address: string }[];
  port: number;
  scrapeInterval?: string;
  evaluationInterval?: string;
  rulesFile?: string;
  logFile?: string;
}): Promise<RunningPrometheus>;
