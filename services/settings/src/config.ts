import { z } from "zod";
import { baseConfigSchema } from "@lease/platform";

/** 32 random bytes, base64: the AES-256-GCM key for the mail-provider key at rest. */
const encryptionKey = z
  .string({ error: "SETTINGS_ENCRYPTION_KEY is required (32 random bytes, base64)" })
  .refine((v) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(v.trim()) && Buffer.from(v.trim(), "base64").length === 32, {
    error: "SETTINGS_ENCRYPTION_KEY must be 32 random bytes, base64 encoded (openssl rand -base64 32)",
  })
  .transform((v) => Buffer.from(v.trim(), "base64"));

/** Old keys during a rotation, comma-separated: they only decrypt; stored values move to the new key. */
const previousKeys = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean),
  )
  .refine(
    (keys) => keys.every((k) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(k) && Buffer.from(k, "base64").length === 32),
    {
      error: "SETTINGS_ENCRYPTION_KEY_PREVIOUS must be comma-separated keys of 32 bytes, base64 encoded",
    },
  )
  .transform((keys) => keys.map((k) => Buffer.from(k, "base64")));

export const settingsConfigSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8082),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9082),
  SETTINGS_ENCRYPTION_KEY: encryptionKey,
  SETTINGS_ENCRYPTION_KEY_PREVIOUS: previousKeys,
});
export type SettingsConfig = z.infer<typeof settingsConfigSchema>;
