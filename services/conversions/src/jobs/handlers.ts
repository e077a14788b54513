import { randomUUID } from "node:crypto";
import type {
  ConversionEvent,
  ConversionPlatform,
  ConversionSendJobData,
  ConversionStatus,
  InternalConversionSettings,
  JobName,
  MatchKey,
} from "@lease/contracts";
import { CONVERSION_PLATFORMS } from "@lease/contracts";
import type { JobHandlers, Logger, QueueClient } from "@lease/platform";
import {
  metaRequest,
  snapchatRequest,
  tiktokRequest,
  type ConversionInput,
  type PlatformRequest,
} from "../domain/payloads";
import { PLATFORM_NAMES, sendToPlatform, type SendResult } from "../domain/send";
import { googleRequest } from "../domain/google";
import type { GoogleTokens } from "../domain/google-token";
import type { DeliveriesRepository } from "../repositories/deliveries";
import type { ConversionSources } from "../repositories/sources";

/** Outcomes counted per platform (conversions_sends_total); all but sent and retry are failures. */
export const SEND_OUTCOMES = ["sent", "retry", "refused", "not_configured", "gave_up"] as const;
export type SendOutcome = (typeof SEND_OUTCOMES)[number];

export interface HandlerDeps {
  sources: ConversionSources;
  deliveries: DeliveriesRepository;
  queue: Pick<QueueClient, "enqueue">;
  baseUrls: Record<ConversionPlatform, string>;
  metaApiVersion: string;
  /** The site's origin (PUBLIC_ORIGIN): the event's page when the lead has none. */
  publicOrigin?: string;
  timeoutMs: number;
  /** Google's access tokens (OAuth 2.0), kept until shortly before they expire. */
  googleTokens: GoogleTokens;
  onOutcome: (platform: ConversionPlatform, outcome: SendOutcome) => void;
}

/** A test event: Meta's and TikTok's test_event_code, Snapchat's /events/validate, Google's validateOnly. */
export interface TestMode {
  testEventCode?: string;
}

const GOOGLE_EVENT_LABELS: Record<ConversionEvent, string> = {
  lead: "aanvraag",
  offerte: "offerte",
  getekend: "getekend",
};

/**
 * The platform's request; why it cannot be sent (Dutch, for the panel) when it is not set up; or,
 * for Google, why no access token could be had (waiting for a retry, or refused).
 */
export async function requestFor(
  platform: ConversionPlatform,
  input: ConversionInput,
  settings: InternalConversionSettings,
  deps: Pick<HandlerDeps, "baseUrls" | "metaApiVersion" | "googleTokens">,
  test?: TestMode,
): Promise<PlatformRequest | string | Extract<SendResult, { ok: false }>> {
  const name = PLATFORM_NAMES[platform];
  if (platform === "google") {
    const g = settings.google;
    if (!g.customerId) return "Geen klant-ID van Google Ads ingesteld (Conversies).";
    const action = g.conversionActions[input.event];
    if (!action)
      return `Geen conversieactie van Google Ads voor "${GOOGLE_EVENT_LABELS[input.event]}" ingesteld (Conversies).`;
    if (g.credentialsUnreadable)
      return "De opgeslagen inloggegevens van Google kunnen niet worden gelezen — voer ze opnieuw in bij Conversies.";
    if (!g.credentials) return "Geen inloggegevens van Google ingesteld (Conversies).";
    const token = await deps.googleTokens.token(g.credentials);
    if (!token.ok) return token;
    return googleRequest(input, {
      baseUrl: deps.baseUrls.google,
      customerId: g.customerId,
      conversionActionId: action,
      accessToken: token.token,
      validateOnly: test !== undefined,
    });
  }
  const s = settings[platform];
  if (!s.pixelId) return `Geen pixel-id van ${name} ingesteld (Tracking Pixels).`;
  if (s.tokenUnreadable)
    return `Het opgeslagen toegangstoken van ${name} kan niet worden gelezen — voer het opnieuw in bij Conversies.`;
  if (!s.accessToken) return `Geen toegangstoken van ${name} ingesteld (Conversies).`;
  const opts = {
    baseUrl: deps.baseUrls[platform],
    pixelId: s.pixelId,
    accessToken: s.accessToken,
    testEventCode: test?.testEventCode,
  };
  if (platform === "meta") return metaRequest(input, { ...opts, version: deps.metaApiVersion });
  if (platform === "tiktok") return tiktokRequest(input, opts);
  return snapchatRequest(input, { ...opts, validate: test !== undefined });
}

export function conversionHandlers(deps: HandlerDeps): JobHandlers {
  /**
   * Keeps the outcome here and tells leads (the lead's detail in the panel), with the match keys
   * the event carried and whether every platform switched on has now taken it (then leads drops
   * the visitor's address the arrival was sent with).
   */
  async function report(
    data: ConversionSendJobData,
    platform: ConversionPlatform,
    status: ConversionStatus,
    error: string | null,
    attempted: boolean,
    extra: { matchKeys?: MatchKey[]; settled?: boolean } = {},
  ) {
    await deps.deliveries.record({
      eventId: data.eventId,
      platform,
      leadId: data.leadId,
      event: data.event,
      status,
      error,
      attempted,
    });
    await deps.queue.enqueue(
      "leads.conversion-outcome",
      {
        leadId: data.leadId,
        platform,
        event: data.event,
        status,
        at: new Date().toISOString(),
        error,
        matchKeys: extra.matchKeys ?? [],
        settled: extra.settled ?? false,
      },
      { jobId: randomUUID() },
    );
  }

  /**
   * Every platform switched on that takes the visitor's address, besides the one just sent, has
   * this event already (Google is not sent the address, so it does not keep it waiting).
   */
  async function othersSent(eventId: string, sent: ConversionPlatform, settings: InternalConversionSettings) {
    for (const p of CONVERSION_PLATFORMS)
      if (
        p !== sent &&
        p !== "google" &&
        settings[p].enabled &&
        (await deps.deliveries.find(eventId, p))?.status !== "sent"
      )
        return false;
    return true;
  }

  return {
    /**
     * Sends the event to each platform switched on (or those a retry names), skipping any that
     * took it already. A platform that is down or answers 429/5xx keeps the event waiting and the
     * job is tried again (backoff from the catalog, for a day); a refusal fails it with the
     * platform's message.
     */
    async "conversions.send"(data, { log }) {
      const lead = await deps.sources.lead(data.leadId);
      if (!lead) return void log.info({ leadId: data.leadId }, "lead gone; conversion not sent");
      // Only the page decides consent; leads queues these only with it, and this checks again.
      if (!lead.marketingConsent) return;
      const settings = await deps.sources.settings();
      const platforms = data.platforms ?? CONVERSION_PLATFORMS.filter((p) => settings[p].enabled);
      const input: ConversionInput = {
        lead: { ...lead, pageUrl: lead.pageUrl ?? (deps.publicOrigin ? `${deps.publicOrigin}/` : null) },
        event: data.event,
        eventId: data.eventId,
        at: data.at,
        valueCents: data.valueCents,
      };
      const later: string[] = [];
      for (const platform of platforms) {
        if ((await deps.deliveries.find(data.eventId, platform))?.status === "sent") continue;
        const request = await requestFor(platform, input, settings, deps);
        if (typeof request === "string") {
          deps.onOutcome(platform, "not_configured");
          await report(data, platform, "failed", request, false);
          continue;
        }
        const built = "url" in request;
        const result = built ? await sendToPlatform(platform, request, deps.timeoutMs) : request;
        const matchKeys = built ? request.matchKeys : [];
        if (
          platform === "google" &&
          !result.ok &&
          result.error.includes("(401)") &&
          settings.google.credentials
        )
          deps.googleTokens.forget(settings.google.credentials);
        if (result.ok) {
          deps.onOutcome(platform, "sent");
          const settled = await othersSent(data.eventId, platform, settings);
          await report(data, platform, "sent", null, true, { matchKeys, settled });
        } else if (result.retry) {
          deps.onOutcome(platform, "retry");
          await report(data, platform, "waiting", result.error, true, { matchKeys });
          later.push(result.error);
        } else {
          deps.onOutcome(platform, "refused");
          log.warn(
            { platform, event: data.event, leadId: data.leadId, err: result.error },
            "conversion refused",
          );
          await report(data, platform, "failed", result.error, true, { matchKeys });
        }
      }
      if (later.length > 0) throw new Error(later.join(" "));
    },
  };
}

/** After the last attempt the waiting deliveries fail for good, visible in the panel with a retry. */
export function onFinalFailure(
  deps: Pick<HandlerDeps, "deliveries" | "queue" | "onOutcome">,
  logger: Logger,
) {
  return async (name: JobName, data: unknown, err: Error) => {
    logger.error({ job: name, err: err.message }, "job failed for good");
    if (name !== "conversions.send") return;
    const job = data as ConversionSendJobData;
    for (const row of await deps.deliveries.waiting(job.eventId)) {
      const platform = row.platform as ConversionPlatform;
      const error = `Opgegeven na herhaalde pogingen: ${row.error ?? err.message}`;
      deps.onOutcome(platform, "gave_up");
      await deps.deliveries.record({
        ...row,
        platform,
        event: row.event as ConversionEvent,
        status: "failed",
        error,
        attempted: false,
      });
      await deps.queue.enqueue(
        "leads.conversion-outcome",
        {
          leadId: row.leadId,
          platform,
          event: row.event as ConversionEvent,
          status: "failed",
          at: new Date().toISOString(),
          error,
          matchKeys: [],
          settled: false,
        },
        { jobId: randomUUID() },
      );
    }
  };
}
