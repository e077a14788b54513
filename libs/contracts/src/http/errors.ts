import { z } from "zod";

/** Stable machine codes of ApiError; the message beside them is for people. */
export const ERROR_CODES = {
  validation_failed: "validation_failed",
  not_found: "not_found",
  payload_too_large: "payload_too_large",
  unsupported_media_type: "unsupported_media_type",
  unauthorized: "unauthorized",
  forbidden: "forbidden",
  rate_limited: "rate_limited",
  service_unavailable: "service_unavailable",
  bad_gateway: "bad_gateway",
  internal: "internal",
  invalid_credentials: "invalid_credentials",
  conflict: "conflict",
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export const ApiErrorField = z.object({
  path: z.string().describe('Dotted path of the offending field, e.g. "carUrl"'),
  message: z.string(),
});
export type ApiErrorField = z.infer<typeof ApiErrorField>;

/** Body of every error response in the system. */
export const ApiError = z
  .object({
    code: z.string().describe("One of ERROR_CODES"),
    message: z.string(),
    fields: z.array(ApiErrorField).optional().describe("Per-field messages when code is validation_failed"),
  })
  .describe("Error body of every non-2xx response");
export type ApiError = z.infer<typeof ApiError>;

/** Maps zod issues to ApiError fields, keeping the schema's (Dutch) messages. */
export function toApiErrorFields(issues: readonly z.core.$ZodIssue[]): ApiErrorField[] {
  return issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}
