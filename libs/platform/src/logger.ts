import { pino, type Logger } from "pino";
import { traceLogFields, tracingEnabled } from "./tracing";

export type { Logger };

/** JSON logs (with trace_id/span_id when tracing is on); secrets that might ride on request objects are redacted by path. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // With tracing on, the active trace's ids on every line of a request or job; off, no mixin at all.
    mixin: tracingEnabled() ? traceLogFields : undefined,
    redact: {
      paths: [
        "password",
        "*.password",
        "sendgridApiKey",
        "*.sendgridApiKey",
        "req.headers.cookie",
        "req.headers.authorization",
        'req.headers["x-internal-token"]',
      ],
      censor: "[redacted]",
    },
  });
}
