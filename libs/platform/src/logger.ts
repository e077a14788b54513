import { pino, type Logger } from "pino";

export type { Logger };

/** JSON logs; secrets that might ride on request objects are redacted by path. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
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
