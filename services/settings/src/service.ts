import {
  createInternalClient,
  createKit,
  loadConfig,
  startService,
  type Logger,
  type RunningService,
} from "@lease/platform";
import { settingsConfigSchema } from "./config";
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
  const domain = settingsDomain({
    company: companySettingsRepository(kit.db),
    theme: themeSettingsRepository(kit.db),
    box: secretBox(config.SETTINGS_ENCRYPTION_KEY),
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
