import type { Context, Next } from "koa";
import { HttpError } from "./errors";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Reads a JSON body with a hard size limit. A declared Content-Length over the limit is refused
 * before a byte is read; a chunked body is cut off as soon as it passes the limit.
 */
export function jsonBody(limitBytes: number) {
  return async function readJsonBody(ctx: Context, next: Next) {
    if (!METHODS_WITH_BODY.has(ctx.method)) return next();
    const declared = Number(ctx.get("content-length") || 0);
    const chunked = /chunked/i.test(ctx.get("transfer-encoding"));
    if (declared === 0 && !chunked) {
      ctx.request.body = undefined;
      return next();
    }
    if (declared > limitBytes) {
      ctx.set("Connection", "close");
      throw new HttpError(413, "payload_too_large", `Het verzoek is te groot (maximaal ${limitBytes} bytes)`);
    }
    if (!ctx.is("application/json")) throw notJson();
    ctx.request.body = parseJsonText(await readRawBody(ctx, limitBytes));
    return next();
  };
}

/** 415 for a body that is not declared as JSON. */
export const notJson = () =>
  new HttpError(415, "unsupported_media_type", "Stuur de gegevens als application/json");

const NUL_MESSAGE = "De gegevens bevatten een ongeldig teken (NUL); verwijder het en probeer het opnieuw";

/**
 * A JSON body's text as a value: blank is undefined, anything unparseable a 400. Text holding a NUL
 * character is a 400 too: PostgreSQL cannot store it, so it would otherwise end as a 500.
 */
export function parseJsonText(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new HttpError(400, "invalid_json", "De gegevens zijn geen geldige JSON");
  }
  // Cheap test first (a NUL can only arrive escaped or raw); the walk only for suspects.
  if ((raw.includes("\0") || /\\u0000/i.test(raw)) && holdsNul(value))
    throw new HttpError(400, "invalid_character", NUL_MESSAGE);
  return value;
}

function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === "object")
    return Object.entries(value).some(([key, v]) => key.includes("\0") || holdsNul(v));
  return false;
}

/** Reads the request body as UTF-8, refusing (413) as soon as it passes `limit` bytes. */
export function readRawBody(ctx: Context, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const req = ctx.req;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume();
        ctx.set("Connection", "close");
        reject(new HttpError(413, "payload_too_large", `Het verzoek is te groot (maximaal ${limit} bytes)`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(new HttpError(400, "bad_request", `Het verzoek kon niet worden gelezen: ${err.message}`));
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

declare module "koa" {
  interface Request {
    body?: unknown;
  }
}
