import { CONVERSION_VISIT_WAIT_ATTEMPTS } from "@lease/contracts";
import type { JobHandlers, QueueClient } from "@lease/platform";
import { ConversionRecorder } from "../repositories/conversions";
import type { LeadStagesRepository } from "../repositories/lead-stages";

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
}): JobHandlers {
  return {
    async "tracking.conversion"(data, { attempt, log }) {
      const at = new Date(data.at);
      const days = data.sessionId ? await deps.recorder.visitDays(data.sessionId, at) : [];
      // The form's own page may still wait in the visit stream: try again later, and from the last
      // attempt that waits for it on take what there is (a visit never written, e.g. beyond its
      // budget: unattributed). Later attempts are retries of a failure (the database away).
      if (
        data.sessionId &&
        !ConversionRecorder.reachedFormDay(days, at) &&
        attempt < CONVERSION_VISIT_WAIT_ATTEMPTS
      )
        throw new Error("the visit's page views are not written yet; tried again");
      const result = await deps.recorder.record(
        { source: data.source, leadId: data.sourceId, sessionId: data.sessionId, at },
        days,
      );
      log.debug({ recorded: result.recorded, attributed: result.attribution !== null }, "conversion");
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
