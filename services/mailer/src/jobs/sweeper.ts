import type { Logger, QueueClient } from "@lease/platform";
import type { OutgoingRepository } from "../repositories/outgoing";

/** Queues again the outgoing e-mails whose enqueue failed; the job id (= row id) makes it safe. */
export function startSweeper(deps: {
  outgoing: OutgoingRepository;
  queue: QueueClient;
  intervalMs: number;
  logger: Logger;
}) {
  let running: Promise<void> | undefined;
  const sweep = async () => {
    const ids = await deps.outgoing.stuckQueued(deps.intervalMs, 500);
    if (ids.length === 0) return;
    await deps.queue.enqueueMany(
      ids.map((id) => ({ name: "mail.send" as const, data: { outgoingEmailId: id }, jobId: id })),
    );
    deps.logger.info({ count: ids.length }, "queued stuck e-mails again");
  };
  const timer = setInterval(() => {
    running ??= sweep()
      .catch((err: Error) => deps.logger.warn({ err: err.message }, "sweep failed"))
      .finally(() => (running = undefined));
  }, deps.intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
