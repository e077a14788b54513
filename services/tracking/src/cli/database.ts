import { z } from "zod";
import { createLogger, createPool, migrateOnStart, prepareSchema, type Pool } from "@lease/platform";
const TRACKING_MIGRATIONS = new URL("../../migrations", import.meta.url);

const cliConfig = z.object({
  DATABASE_URL: z
    .string({
      error:
        "DATABASE_URL is niet gezet: start dit als npm run tracking:import (of :retention), dat de database vindt zoals npm start",
    })
    .min(1),
  RETENTION_MONTHS: z.coerce.number().int().min(1).max(120).default(26),
});

/**
 * The tracking database for a command-line tool (npm run tracking:import / :retention, through
 * scripts/cli.mjs), its migrations applied or checked as the service does; the caller ends the pool.
 */
export async function openCliDatabase(name: string): Promise<{ pool: Pool; retentionMonths: number }> {
  const parsed = cliConfig.safeParse(process.env);
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
  const pool = createPool(parsed.data.DATABASE_URL, createLogger(name, "warn"), 4);
  await prepareSchema(pool, "tracking", TRACKING_MIGRATIONS, migrateOnStart());
  return { pool, retentionMonths: parsed.data.RETENTION_MONTHS };
}
