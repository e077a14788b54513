import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// The environment each service needs, so the manifests can be checked against the code: the names
// fixed in the design, plus every variable without a default in the zod config schemas
// (libs/platform/src/config.ts and services/<name>/src/config.ts once they exist).

export const SERVICES = {
  gateway: 8080,
  leads: 8081,
  settings: 8082,
  tracking: 8083,
  mailer: 8084,
  conversions: 8085,
} as const;
export type ServiceName = keyof typeof SERVICES;
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

// HOST, NODE_ENV and friends have defaults in code, but the code's defaults (127.0.0.1, development)
// are wrong in a container, so the manifests must set them.
const COMMON = [
  "NODE_ENV",
  "LOG_LEVEL",
  "HOST",
  "PORT",
  // The metrics listener: in a container it must listen beyond loopback, on the port scraped.
  "METRICS_HOST",
  "METRICS_PORT",
  "DATABASE_URL",
  "REDIS_URL",
  "REDIS_PREFIX",
  "SHUTDOWN_TIMEOUT_MS",
  "JWT_SECRET",
  "INTERNAL_TOKEN",
];
const DESIGNED: Record<ServiceName, string[]> = {
  gateway: [
    "LEADS_URL",
    "SETTINGS_URL",
    "TRACKING_URL",
    "MAILER_URL",
    "WEB_DIST_DIR",
    "PUBLIC_ORIGIN",
    "TRUSTED_PROXIES",
  ],
  leads: ["LEAD_RATE_LIMIT", "LEAD_RATE_WINDOW_SECONDS"],
  settings: ["SETTINGS_ENCRYPTION_KEY"],
  tracking: ["PUBLIC_ORIGIN"],
  mailer: ["SENDGRID_API_BASE_URL", "SETTINGS_URL", "LEADS_URL", "TRACKING_URL"],
  conversions: [
    "META_API_BASE_URL",
    "TIKTOK_API_BASE_URL",
    "SNAPCHAT_API_BASE_URL",
    "GOOGLE_CONVERSIONS_API_BASE_URL",
    "GOOGLE_OAUTH_TOKEN_URL",
    "SETTINGS_URL",
    "LEADS_URL",
  ],
};

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

export function configFiles(root: string, service: ServiceName): string[] {
  return [
    path.join(root, "libs/platform/src/config.ts"),
    path.join(root, "services", service, "src/config.ts"),
  ].filter((f) => existsSync(f));
}

export async function requiredEnv(root: string, service: ServiceName): Promise<string[]> {
  const names = new Set([...COMMON, ...DESIGNED[service]]);
  for (const file of configFiles(root, service)) for (const name of await requiredIn(file)) names.add(name);
  return [...names].sort();
}

interface SchemaLike {
  safeParse(value: unknown): { success: boolean };
}
const shapeOf = (value: unknown): Record<string, SchemaLike> | undefined => {
  const shape = (value as { shape?: unknown } | null)?.shape;
  if (typeof shape !== "object" || shape === null) return undefined;
  const entries = Object.entries(shape);
  return entries.length > 0 &&
    entries.every(([k, v]) => ENV_NAME.test(k) && typeof (v as SchemaLike)?.safeParse === "function")
    ? (shape as Record<string, SchemaLike>)
    : undefined;
};

/** Keys of the exported env schemas that fail on undefined (no default, not optional). */
export async function requiredIn(file: string): Promise<string[]> {
  try {
    const shapes = Object.values((await import(pathToFileURL(file).href)) as Record<string, unknown>)
      .map(shapeOf)
      .filter((s) => s !== undefined);
    if (shapes.length > 0)
      return shapes.flatMap((shape) =>
        Object.entries(shape)
          .filter(([, schema]) => !schema.safeParse(undefined).success)
          .map(([k]) => k),
      );
  } catch {
    // A module that parses process.env when imported: read its source instead.
  }
  return requiredInSource(readFileSync(file, "utf8"));
}

/** `NAME: z.…` entries of a schema literal whose chain has no .default(/.optional(. */
export function requiredInSource(source: string): string[] {
  const entries: { name: string; text: string }[] = [];
  for (const line of source.split("\n")) {
    const trimmed = line.trim();
    if (trimmed.startsWith("//") || trimmed.startsWith("*") || trimmed.startsWith("/*")) continue;
    const key = /^["']?([A-Z][A-Z0-9_]*)["']?\s*:(.*)$/.exec(trimmed);
    if (key) entries.push({ name: key[1] as string, text: key[2] as string });
    else if (/^}\)/.test(trimmed)) entries.push({ name: "", text: "" });
    else if (entries.length > 0) (entries.at(-1) as { text: string }).text += trimmed;
  }
  return entries
    .filter((e) => e.name && !/\.(default|optional|nullish|catch)\(/.test(e.text))
    .map((e) => e.name);
}
