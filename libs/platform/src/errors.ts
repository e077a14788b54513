import type { ApiError, ErrorCode } from "@lease/contracts";

/** An error with an HTTP status, a stable code and a message a person can act on. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: ApiError["fields"],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }

  toBody(): ApiError {
    return this.fields
      ? { code: this.code, message: this.message, fields: this.fields }
      : { code: this.code, message: this.message };
  }
}

/** A service cannot start: the message says what to fix. */
export class StartupError extends Error {
  override name = "StartupError";
}

export const notFound = (message = "Niet gevonden") => new HttpError(404, "not_found", message);
export const unauthorized = (message = "Niet ingelogd") => new HttpError(401, "unauthorized", message);
export const forbidden = (message = "Geen toegang") => new HttpError(403, "forbidden", message);
export const serviceUnavailable = (message: string, retryAfterSeconds = 5) =>
  new HttpError(503, "service_unavailable", message, undefined, { "Retry-After": String(retryAfterSeconds) });

const PG_UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/** True for errors that mean Postgres (or the network to it) is down, not that the query was wrong. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  if (code && (PG_UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
  const msg = err.message;
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(
      msg,
    )
  )
    return true;
  const cause = (err as { cause?: unknown }).cause;
  return cause !== undefined && cause !== err && isDatabaseUnavailable(cause);
}
