import { randomUUID } from "node:crypto";
import { type ConversionTestResult, type InternalLeadConversion } from "@lease/contracts";
import {
  HttpError,
  contractRouter,
  requireAdmin,
  type ContractRouter,
  type RateLimiter,
  type SessionDeps,
} from "@lease/platform";
import { judge, platformMessage, postToPlatform, PLATFORM_NAMES } from "../domain/send";
import { requestFor, type HandlerDeps } from "../jobs/handlers";
import type { ConversionSources } from "../repositories/sources";

/** The made-up person of a test event: an address of the reserved example domain, a valid Dutch mobile number. */
const testLead = (userAgent: string | null, pageUrl: string | null): InternalLeadConversion => ({
  id: randomUUID(),
  marketingConsent: true,
  email: "testgebeurtenis@example.com",
  phone: "+31 6 12345678",
  clickIds: null,
  userAgent,
  pageUrl,
  fbp: null,
  clientIp: null,
  createdAt: new Date().toISOString(),
});

/** The test event's page: the site (PUBLIC_ORIGIN), else the panel's own origin (the gateway checked it). */
function testPage(publicOrigin: string | undefined, origin: string): string | null {
  if (publicOrigin) return `${publicOrigin}/`;
  return /^https?:\/\/[^\s/?#]+$/.test(origin) ? `${origin}/` : null;
}

/**
 * POST /api/admin/conversion-settings/{platform}/test: one test event of a made-up lead sent with
 * the platform's test mode (Meta's and TikTok's test_event_code, Snapchat's /events/validate,
 * Google's validateOnly), answering the platform's status and own message. Meta and TikTok need
 * the code: without it the event would be counted as a real lead.
 */
export function adminRoutes(
  deps: Pick<HandlerDeps, "baseUrls" | "metaApiVersion" | "googleTokens" | "timeoutMs" | "publicOrigin"> & {
    sources: ConversionSources;
    /** Test events per admin (the platforms throttle the broker's account, not the admin). */
    testLimiter: RateLimiter;
  },
  session: SessionDeps,
): ContractRouter {
  const router = contractRouter("conversions", requireAdmin(session));
  router.post("/api/admin/conversion-settings/{platform}/test", async (ctx) => {
    const { platform } = ctx.input.params;
    const { testEventCode } = ctx.input.body;
    const name = PLATFORM_NAMES[platform];
    if ((platform === "meta" || platform === "tiktok") && !testEventCode)
      throw new HttpError(
        400,
        "validation_failed",
        `Vul de testcode uit ${name} in (bij Testgebeurtenissen)`,
        [{ path: "testEventCode", message: `Vul de testcode uit ${name} in` }],
      );
    // Counted per admin, whatever address they use: the bound is on calls to the platform.
    await deps.testLimiter.hit(`conversion-test:${ctx.state.admin!.id}`, "", ctx.state.log);
    const settings = await deps.sources.settings(ctx.state.requestId);
    const input = {
      lead: testLead(ctx.get("user-agent") || null, testPage(deps.publicOrigin, ctx.get("origin"))),
      event: "lead" as const,
      eventId: randomUUID(),
      at: new Date().toISOString(),
      valueCents: null,
    };
    const request = await requestFor(platform, input, settings, deps, { testEventCode });
    if (typeof request === "string") throw new HttpError(409, "conflict", request);
    let result: ConversionTestResult;
    if (!("url" in request)) {
      result = { platform, ok: false, status: null, message: request.error, matchKeys: [] };
    } else {
      const answer = await postToPlatform(platform, request, deps.timeoutMs);
      const judged = judge(platform, answer);
      result =
        "unreachable" in answer
          ? {
              platform,
              ok: false,
              status: null,
              message: `${answer.unreachable}.`,
              matchKeys: request.matchKeys,
            }
          : {
              platform,
              ok: judged.ok,
              status: answer.status,
              message: judged.ok ? okMessage(platform, answer.text) : judged.error,
              matchKeys: request.matchKeys,
            };
    }
    ctx.state.log.info({ platform, ok: result.ok, status: result.status }, "conversion test event sent");
    ctx.body = result;
  });
  return router;
}

/** The platform's own words on success (Meta's events_received, TikTok's message, Snapchat's status, Google's validation). */
function okMessage(platform: string, text: string): string {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    if (platform === "meta" && typeof json.events_received === "number")
      return `Meta ontving ${json.events_received} testgebeurtenis(sen) (events_received: ${json.events_received}).`;
    if (platform === "snapchat" && typeof json.status === "string") return `Snapchat: ${json.status}.`;
    if (platform === "google")
      return "Google heeft de testgebeurtenis gecontroleerd en goedgekeurd (validateOnly).";
  } catch {
    // not JSON: the text itself
  }
  return platformMessage(text) || "Ontvangen.";
}
