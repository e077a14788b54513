import { existsSync } from "node:fs";
import { z } from "zod";
import { createLogger, createPool, runMigrations, type Pool } from "@lease/platform";

const cliConfig = z.object({
  DATABASE_URL: z
    .string({ error: "DATABASE_URL is niet gezet (start eerst npm start, of zet de variabele)" })
    .min(1),
  RETENTION_MONTHS: z.coerce.number().int().min(1).max(120).default(26),
});

/** The tracking database for a command-line tool, migrated; the caller ends the pool. */
export async function openCliDatabase(name: string): Promise<{ pool: Pool; retentionMonths: number }> {
  if (!process.env.DATABASE_URL && existsSync(".env")) process.loadEnvFile(".env");
  const parsed = cliConfig.safeParse(process.env);
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
  const pool = createPool(parsed.data.DATABASE_URL, createLogger(name, "warn"), 4);
  await runMigrations(pool, "tracking", new URL("../../migrations", import.meta.url));
  return { pool, retentionMonths: parsed.data.RETENTION_MONTHS };
}
