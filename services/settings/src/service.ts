import { CHANNELS, SettingsChangedEvent } from "@lease/contracts";
import {
  createKit,
  createQueueClient,
  auditedTransactions,
  loadConfig,
  startServiceOutbox,
  startService,
  subscribeEvent,
  type Logger,
  type RunningService,
} from "@lease/platform";
import { settingsConfigSchema } from "./config";
import { outbox as outboxTable } from "./db/schema";
import { rewrapStoredSecrets } from "./domain/key-rotation";
import { publicSnapshots } from "./domain/public-snapshots";
import { secretBox } from "./domain/secret-box";
import { settingsDomain } from "./domain/settings";
import { companySettingsRepository } from "./repositories/company-settings";
import { themeSettingsRepository } from "./repositories/theme-settings";
import { adminRoutes } from "./routes/admin";
import { internalRoutes } from "./routes/internal";
import { publicRoutes } from "./routes/public";

/** How long a replica may serve its in-memory public settings when a change event was missed. */
const PUBLIC_SNAPSHOT_TTL_MS = 5000;

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
  const snapshots = publicSnapshots(PUBLIC_SNAPSHOT_TTL_MS);
  // Writes on other replicas: their event drops this replica's copy (the TTL covers a lost event).
  await subscribeEvent(
    kit.subscriber(),
    kit.keys,
    CHANNELS.settingsChanged,
    SettingsChangedEvent,
    (event) => snapshots.drop(event.kind),
    kit.logger,
  ).catch((err: Error) =>
    kit.logger.warn(
      { err: err.message },
      "not subscribed to settings changes; relying on the snapshot expiry",
    ),
  );
  // Saves are recorded in the gateway's audit log: audit.record jobs written to settings.outbox in
  // the save's transaction, relayed to the queue (a Redis outage delays them, loses none).
  const queue = createQueueClient(kit.bullConnection(), config.REDIS_PREFIX);
  const outbox = await startServiceOutbox(kit, queue);
  const domain = settingsDomain({
    company,
    theme: themeSettingsRepository(kit.db),
    box,
    redis: kit.redis,
    keys: kit.keys,
    logger: kit.logger,
    changed: (kind) => snapshots.drop(kind),
    transaction: auditedTransactions(kit.db, outboxTable, outbox, (tx) => ({
      company: companySettingsRepository(tx),
      theme: themeSettingsRepository(tx),
    })),
  });
  const running = await startService(kit, {
    routes: [
      publicRoutes(domain, snapshots),
      adminRoutes(domain, kit.session),
      internalRoutes(domain, config.INTERNAL_TOKEN),
    ],
    onStop: [() => outbox.relay.stop(), () => queue.close()],
  });
  outbox.registerMetrics(running.app.metrics.registry);
  return running;
}
