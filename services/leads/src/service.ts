import {
  createKit,
  createQueueClient,
  loadConfig,
  startService,
  withTimeout,
  type Logger,
  type RunningService,
  clientIp,
  parseTrustedProxies,
} from "@lease/platform";
import { leadsConfigSchema } from "./config";
import { leaseRequestsDomain } from "./domain/lease-requests";
import { redisRateLimiter } from "./domain/rate-limit";
import { startOutboxRelay } from "./domain/relay";
import { leaseRequestsRepository } from "./repositories/lease-requests";
import { outboxRepository } from "./repositories/outbox";
import { adminRoutes } from "./routes/admin";
import { internalRoutes } from "./routes/internal";
import { publicRoutes } from "./routes/public";

export const LEADS_MIGRATIONS = new URL("../migrations", import.meta.url);

export async function startLeads(
  env: NodeJS.ProcessEnv = process.env,
  opts: { logger?: Logger } = {},
): Promise<RunningService> {
  const config = loadConfig(leadsConfigSchema, env);
  const trusted = parseTrustedProxies(config.TRUSTED_PROXIES);
  const kit = await createKit("leads", config, { logger: opts.logger, migrationsFolder: LEADS_MIGRATIONS });
  const bull = kit.bullConnection();
  // Start relaying once the queue connection is up (createKit already proved Redis reachable).
  await withTimeout(
    new Promise((r) => (bull.status === "ready" ? r(null) : bull.once("ready", r))),
    5000,
  ).catch(() => undefined);
  const queue = createQueueClient(bull, config.REDIS_PREFIX);
  const relay = startOutboxRelay({
    outbox: outboxRepository(kit.pool),
    queue,
    queueReady: () => bull.status === "ready",
    logger: kit.logger.child({ component: "outbox-relay" }),
    pollMs: config.OUTBOX_POLL_MS,
  });
  const leads = leaseRequestsDomain(leaseRequestsRepository(kit.db, kit.pool), () => relay.nudge());
  return startService(kit, {
    routes: [
      publicRoutes({
        leads,
        limiter: redisRateLimiter(
          kit.redis,
          kit.keys,
          config.LEAD_RATE_LIMIT,
          config.LEAD_RATE_WINDOW_SECONDS,
        ),
        clientIp: (ctx) => clientIp(ctx.req, trusted),
      }),
      adminRoutes({ leads, session: kit.session }),
      internalRoutes({ leads, internalToken: config.INTERNAL_TOKEN }),
    ],
    onStop: [() => relay.stop(), () => queue.close()],
  });
}
