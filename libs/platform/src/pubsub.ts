import type { z } from "zod";
import type { Keyspace, Redis } from "./redis";
import type { Logger } from "./logger";

/** Publishes a contract-checked event; a Redis outage is logged, not thrown (events are hints). */
export async function publishEvent<S extends z.ZodType>(
  redis: Redis,
  keys: Keyspace,
  channel: string,
  schema: S,
  event: z.input<S>,
  logger: Logger,
): Promise<void> {
  try {
    await redis.publish(keys("events", channel), JSON.stringify(schema.parse(event)));
  } catch (err) {
    logger.warn({ channel, err: (err as Error).message }, "event not published");
  }
}

/** Subscribes to a channel; messages that fail the contract are dropped with a log line. */
export async function subscribeEvent<S extends z.ZodType>(
  subscriber: Redis,
  keys: Keyspace,
  channel: string,
  schema: S,
  handler: (event: z.infer<S>) => void,
  logger: Logger,
): Promise<void> {
  const name = keys("events", channel);
  subscriber.on("message", (ch: string, raw: string) => {
    if (ch !== name) return;
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      data = undefined;
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      logger.warn({ channel }, "malformed event dropped");
      return;
    }
    handler(parsed.data);
  });
  await subscriber.subscribe(name);
}
