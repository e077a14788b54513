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

/** No form or beacon nests deeper than a few levels; anything deeper is refused before it is walked. */
export const JSON_MAX_DEPTH = 64;
const DEPTH_MESSAGE = `De gegevens zijn te diep genest (maximaal ${JSON_MAX_DEPTH} niveaus); stuur een eenvoudiger opbouw`;

/**
 * A JSON body's text as a value: blank is undefined, anything unparseable a 400. Nesting deeper
 * than JSON_MAX_DEPTH is a 400 (every later step, from this NUL check to zod and JSON.stringify,
 * walks the value, and a deep enough value would overflow the stack there). Text holding a NUL
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
  if (jsonDepthExceeds(raw, JSON_MAX_DEPTH)) throw new HttpError(400, "too_deep", DEPTH_MESSAGE);
  // Cheap test first (a NUL can only arrive escaped or raw); the walk only for suspects.
  if ((raw.includes("\0") || /\\u0000/i.test(raw)) && holdsNul(value))
    throw new HttpError(400, "invalid_character", NUL_MESSAGE);
  return value;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether valid JSON text nests objects and arrays deeper than `max`; one pass, no recursion. */
export function jsonDepthExceeds(raw: string, max: number): boolean {
  // Each level takes an opening and a closing character: short text cannot be deep (beacons).
  if (raw.length <= 2 * max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** Whether any string or key in the value holds a NUL; an explicit stack, so depth cannot overflow it. */
function holdsNul(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (value.includes("\0")) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes("\0")) return true;
        pending.push(item);
      }
    }
  }
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
