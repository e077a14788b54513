import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { requiredIn, requiredInSource } from "./lib/required-env";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

describe("required environment read from the config schemas", () => {
  it("takes the variables without defaults from the exported zod schema", async () => {
    const names = await requiredIn(path.join(ROOT, "libs/platform/src/config.ts"));
    expect(names.sort()).toEqual([
      "DATABASE_URL",
      "INTERNAL_TOKEN",
      "JWT_SECRET",
      "METRICS_PORT",
      "PORT",
      "REDIS_URL",
    ]);
  });

  it("reads a schema literal from source when the module cannot be imported", () => {
    const source = [
      "export const config = loadConfig(baseConfigSchema.extend({",
      "  // LEADS_URL: commented out",
      "  LEADS_URL: z.url(),",
      "  LEAD_RATE_LIMIT: z.coerce.number().int()",
      "    .default(5),",
      '  "NEW_REQUIRED_VAR": z',
      "    .string()",
      "    .min(3),",
      "  OPTIONAL_VAR: z.string().optional(),",
      "}));",
    ].join("\n");
    expect(requiredInSource(source)).toEqual(["LEADS_URL", "NEW_REQUIRED_VAR"]);
  });
});
