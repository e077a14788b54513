import { ConversionPlatformParam, ConversionTestBody, ConversionTestResult } from "../http/conversions";
import type { ApiRoute } from "../routes";

// The conversions service's routes: a test conversion sent to an ad platform.

export const CONVERSIONS_ROUTES = [
  {
    method: "POST",
    path: "/api/admin/conversion-settings/{platform}/test",
    service: "conversions",
    auth: "admin",
    summary:
      "Send one test event (Meta/TikTok test_event_code, Snapchat /events/validate, Google validateOnly) and answer the platform's status and message",
    request: { params: ConversionPlatformParam, body: ConversionTestBody, bodyOptional: true },
    responses: {
      200: { description: "The platform's answer", schema: ConversionTestResult },
      409: {
        description:
          "The platform is not set up (pixel id, token, account or credentials missing; code conflict)",
      },
      429: { description: "More than a few test events a minute from this admin; wait Retry-After seconds" },
    },
  },
] as const satisfies readonly ApiRoute[];
