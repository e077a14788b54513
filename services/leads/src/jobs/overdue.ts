import { Counter } from "prom-client";
import { JobSource } from "@lease/contracts";
import { scheduleDaily, type Logger } from "@lease/platform";
import type { OverdueRepository } from "../repositories/overdue";

/** Leads claimed per pass and kind; a backlog (after an outage) takes a few passes in a row. */
const CLAIM_BATCH = 200;
const MAX_BATCHES_PER_PASS = 50;

/** Late leads announced, by kind: each lead once, counted by the replica that claimed it. */
export function overdueMetric(): Counter<"source"> {
  const counter = new Counter({
    name: "leads_overdue_total",
    help: "Leads that passed their response deadline without a response (each announced once to its owner)",
    labelNames: ["source"] as const,
    registers: [],
  });
  // Every series from the start at 0, so an alert's increase() sees the first late lead too.
  for (const source of JobSource.options) counter.inc({ source }, 0);
  return counter;
}

/**
 * Every `everyMs` each replica claims the leads that passed their deadline (overdueRepository:
 * exactly once whichever replica), counts them and nudges the outbox relay, which queues the
 * owner's e-mail and tells the open panels. Answers a function that stops the scan.
 */
export function scheduleOverdueScan(
  repo: OverdueRepository,
  opts: { everyMs: number; counter: Counter<"source">; nudge: () => void; logger: Logger },
): () => void {
  return scheduleDaily(
    "overdue scan",
    async () => {
      let announced = 0;
      for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch++) {
        const claimed = await repo.claim(CLAIM_BATCH);
        for (const lead of claimed) opts.counter.inc({ source: lead.source });
        announced += claimed.length;
        if (claimed.length > 0) opts.nudge();
        if (claimed.length < CLAIM_BATCH) break;
      }
      return announced;
    },
    opts.logger,
    {
      firstRunMs: opts.everyMs,
      everyMs: opts.everyMs,
      describe: (announced) => (announced > 0 ? { announced } : undefined),
    },
  );
}
