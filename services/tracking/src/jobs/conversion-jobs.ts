import { CONVERSION_VISIT_WAIT_ATTEMPTS } from "@lease/contracts";
import type { JobHandlers, QueueClient } from "@lease/platform";
import { ConversionRecorder } from "../repositories/conversions";
import type { LiveVisitors } from "../repositories/live-visitors";
import type { LeadStagesRepository } from "../repositories/lead-stages";
import type { Reattribution } from "../repositories/reattribution";
import { dayOf } from "../domain/calendar";

/**
 * The tracking queue's jobs: a lead sent from the site is counted as a conversion of its visit,
 * and the visit's attribution goes back to the leads service (leads.attribution); a quote
 * request's later stages are counted for the same visit (tracking.stage). Delivery is at
 * least once: the conversion is recorded once per lead id, the attribution job has the lead's id.
 */
export function conversionHandlers(deps: {
  recorder: ConversionRecorder;
  stages: LeadStagesRepository;
  queue: QueueClient;
  visitStream: Pick<LiveVisitors, "writtenThrough">;
  reattribution: Pick<Reattribution, "lead">;
}): JobHandlers {
  return {
    async "tracking.conversion"(data, { attempt, log }) {
      const at = new Date(data.at);
      let days = data.sessionId ? await deps.recorder.visitDays(data.sessionId, at) : [];
      if (data.sessionId && !ConversionRecorder.reachedFormDay(days, at)) {
        // The form's own page may still wait in the visit stream. Once the stream holds nothing
        // recorded before the form (with a second's margin for the clocks of Redis and Postgres),
        // the visit's page views are all in Postgres: wait for that here, briefly, rather than a
        // retry's backoff, and then take what there is (none that day: the visit was never written,
        // e.g. beyond its budget, and the lead stays unattributed).
        if (await waitUntil(() => deps.visitStream.writtenThrough(at.getTime() + CLOCK_MARGIN_MS)))
          days = await deps.recorder.visitDays(data.sessionId, at);
        // Still behind (a busy writer, Postgres away): try again later, and from the last attempt
        // that waits for the visit on take what there is. Later attempts are retries of a failure.
        else if (attempt < CONVERSION_VISIT_WAIT_ATTEMPTS)
          throw new Error("the visit's page views are not written yet; tried again");
      }
      const result = await deps.recorder.record(
        { source: data.source, leadId: data.sourceId, sessionId: data.sessionId, at },
        days,
      );
      log.debug({ recorded: result.recorded, attributed: result.attribution !== null }, "conversion");
      // Its visit sent a value the breakdowns store as "(overig)": stored by name meanwhile, the
      // lead counts under it at once (else when it is: repositories/reattribution.ts).
      if (days[0]?.sent) await deps.reattribution.lead(data.sourceId, dayOf(at.getTime()).day);
      // A form with a session id always gets an answer, an attribution or null (no page view of
      // that session: the lead has none, for good), so the admin stops saying it is being worked out.
      if (data.sessionId)
        await deps.queue.enqueue(
          "leads.attribution",
          { source: data.source, sourceId: data.sourceId, attribution: result.attribution },
          { jobId: `attribution-${data.sourceId}` },
        );
    },
    /** A quote request's stage (offerte, getekend, verloren): its campaign's offers, contracts, commission. */
    async "tracking.stage"(data, { log }) {
      log.debug({ outcome: await deps.stages.apply(data) }, "lead stage");
    },
  };
}

/** Redis's and Postgres's clocks may differ this much: a hit just before the form is waited for. */
const CLOCK_MARGIN_MS = 1000;
/** How long a conversion waits in the worker for the visit stream (it is written every second). */
const STREAM_WAIT_MS = 4000;
const STREAM_POLL_MS = 100;

/** Polls `done` until it is true (true) or STREAM_WAIT_MS have passed (false). */
async function waitUntil(done: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + STREAM_WAIT_MS;
  for (;;) {
    if (await done()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, STREAM_POLL_MS));
  }
}
