import { ResponseSettingsResponse, UpdateResponseSettingsBody } from "./http/response-settings";
import type { ApiRoute } from "./routes";

// Who answers a lead and how fast (services/leads/README.md, "Owners and response times"): the
// routes live apart from routes.ts so this part of the API reads as one.

export const RESPONSE_ROUTES: readonly ApiRoute[] = [
  {
    method: "GET",
    path: "/api/admin/response-settings",
    service: "leads",
    auth: "admin",
    summary: "How new leads are assigned, the promised response times and the working hours they count in",
    responses: {
      200: {
        description: "The settings (the site's promises until saved)",
        schema: ResponseSettingsResponse,
      },
    },
  },
  {
    method: "PUT",
    path: "/api/admin/response-settings",
    service: "leads",
    auth: "admin",
    summary: "Save the assignment rule, the promises and the working hours (audited: the fields changed)",
    request: { body: UpdateResponseSettingsBody },
    responses: { 200: { description: "Saved", schema: ResponseSettingsResponse } },
  },
];
