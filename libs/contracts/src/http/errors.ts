import { z } from "zod";

/**
 * Every machine code an error answer carries, in one union: HttpError takes nothing else, so a new
 * code is added here (the message beside it is for people).
 */
export const ErrorCode = z
  .enum([
    "account_disabled",
    "account_removed",
    "account_totp_reset",
    "attachment_not_kept",
    "bad_gateway",
    "bad_request",
    "bad_signature",
    "busy",
    "codes_locked",
    "conflict",
    "default_template",
    "duplicate_name",
    "forbidden",
    "gateway_timeout",
    "internal",
    "invalid_character",
    "invalid_code",
    "invalid_credentials",
    "invalid_events",
    "invalid_json",
    "invalid_message",
    "login_busy",
    "login_expired",
    "mail_key_unreadable",
    "mail_not_configured",
    "method_not_allowed",
    "no_rows",
    "not_cancellable",
    "not_found",
    "not_retryable",
    "nothing_to_retry",
    "one_time_password_expired",
    "owner_inactive",
    "payload_too_large",
    "privacy_company_address",
    "privacy_incomplete",
    "privacy_staff_address",
    "rate_limited",
    "replayed",
    "report_busy",
    "report_timeout",
    "service_unavailable",
    "site_not_built",
    "spend_busy",
    "spend_timeout",
    "stage_changed_meanwhile",
    "stage_move_back_unconfirmed",
    "stale",
    "test_email_failed",
    "too_deep",
    "too_many_campaigns",
    "too_many_templates",
    "unauthorized",
    "unknown_format",
    "unsigned",
    "unsupported_media_type",
    "used_code",
    "validation_failed",
  ])
  .describe("Stable machine code of the error");
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ApiErrorField = z.object({
  path: z.string().describe('Dotted path of the offending field, e.g. "carUrl"'),
  message: z.string(),
});
export type ApiErrorField = z.infer<typeof ApiErrorField>;

/** Body of every error response in the system. */
export const ApiError = z
  .object({
    code: ErrorCode,
    message: z.string(),
    fields: z.array(ApiErrorField).optional().describe("Per-field messages when code is validation_failed"),
  })
  .describe("Error body of every non-2xx response");
export type ApiError = z.infer<typeof ApiError>;
