import { scheduleEvery, type Logger, type QueueClient } from "@lease/platform";
import type { OutgoingRepository } from "../repositories/outgoing";

/** Queues again the outgoing e-mails whose enqueue failed; the job id (= row id) makes it safe. */
export function startSweeper(deps: {
  outgoing: OutgoingRepository;
  queue: QueueClient;
  intervalMs: number;
  logger: Logger;
}) {
  const sweep = async () => {
    const ids = await deps.outgoing.stuckQueued(deps.intervalMs, 500);
    if (ids.length === 0) return;
    await deps.queue.enqueueMany(
      ids.map((id) => ({ name: "mail.send" as const, data: { outgoingEmailId: id }, jobId: id })),
    );
    deps.logger.info({ count: ids.length }, "queued stuck e-mails again");
  };
  return scheduleEvery(deps.intervalMs, sweep, (err) =>
    deps.logger.warn({ err: err.message }, "sweep failed"),
  );
}
