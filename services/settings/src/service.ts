import {
  createInternalClient,
  createKit,
  loadConfig,
  startService,
  type Logger,
  type RunningService,
} from "@lease/platform";
import { settingsConfigSchema } from "./config";
import { rewrapStoredSecrets } from "./domain/key-rotation";
import { secretBox } from "./domain/secret-box";
import { settingsDomain } from "./domain/settings";
import { companySettingsRepository } from "./repositories/company-settings";
import { themeSettingsRepository } from "./repositories/theme-settings";
import { adminRoutes } from "./routes/admin";
import { internalRoutes } from "./routes/internal";
import { publicRoutes } from "./routes/public";

export const SETTINGS_MIGRATIONS = new URL("../migrations", import.meta.url);

export async function startSettings(
  env: NodeJS.ProcessEnv = process.env,
  opts: { logger?: Logger } = {},
): Promise<RunningService> {
  const config = loadConfig(settingsConfigSchema, env);
  const kit = await createKit("settings", config, {
    logger: opts.logger,
    migrationsFolder: SETTINGS_MIGRATIONS,
  });
  const company = companySettingsRepository(kit.db);
  const box = secretBox(config.SETTINGS_ENCRYPTION_KEY, config.SETTINGS_ENCRYPTION_KEY_PREVIOUS);
  // A failure here must not keep the settings from serving: the old key still decrypts.
  await rewrapStoredSecrets(company, box, kit.logger).catch((err: Error) =>
    kit.logger.warn({ err: err.message }, "could not re-encrypt the stored SendGrid API key"),
  );
  const domain = settingsDomain({
    company,
    theme: themeSettingsRepository(kit.db),
    box,
    redis: kit.redis,
    keys: kit.keys,
    logger: kit.logger,
    mailer: createInternalClient(config.MAILER_URL, config.INTERNAL_TOKEN),
  });
  return startService(kit, {
    routes: [
      publicRoutes(domain),
      adminRoutes(domain, kit.session),
      internalRoutes(domain, config.INTERNAL_TOKEN),
    ],
  });
}
