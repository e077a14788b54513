import type { Context, Next } from "koa";
import { HttpError } from "./errors";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Reads a JSON body with a hard size limit. A declared Content-Length over the limit is refused
 * before a byte is read; a chunked body is cut off as soon as it passes the limit.
 */
export function jsonBody(defaultLimitBytes: number, routeLimit?: (path: string) => number | undefined) {
  return async function readJsonBody(ctx: Context, next: Next) {
    if (!METHODS_WITH_BODY.has(ctx.method)) return next();
    const limitBytes = routeLimit?.(ctx.path) ?? defaultLimitBytes;
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
 * No form or beacon nests deeper than a few levels; anything deeper is refused before zod or
 * anything else that recurses walks it.
 */
export const JSON_MAX_DEPTH = 64;
const DEPTH_MESSAGE = `De gegevens zijn te diep genest (maximaal ${JSON_MAX_DEPTH} niveaus); stuur een eenvoudiger opbouw`;

/**
 * A JSON body's text as a value: blank is undefined, anything unparseable a 400. Nesting deeper
 * than JSON_MAX_DEPTH is a 400 (every later step, zod and JSON.stringify included, walks the
 * value, and a deep enough value would overflow the stack there). Text holding a NUL character is
 * a 400 too: PostgreSQL cannot store it, so it would otherwise end as a 500.
 */
export function parseJsonText(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new HttpError(400, "invalid_json", "De gegevens zijn geen geldige JSON");
  }
  // Cheap tests on the text first (native searches); the walk only for suspects. A NUL can only
  // arrive escaped or raw; each level of nesting takes an opening bracket, so short text or text
  // with few brackets (beacons, most forms) cannot be deep.
  const nulSuspect = raw.includes("\0") || /\\u0000/i.test(raw);
  const mayBeDeep = raw.length > 2 * JSON_MAX_DEPTH && !openingsAtMost(raw, JSON_MAX_DEPTH);
  if (!nulSuspect && !mayBeDeep) return value;
  const problem = inspectJson(value, JSON_MAX_DEPTH, nulSuspect);
  if (problem === "too_deep") throw new HttpError(400, "too_deep", DEPTH_MESSAGE);
  if (problem === "nul") throw new HttpError(400, "invalid_character", NUL_MESSAGE);
  return value;
}

function openingsAtMost(raw: string, max: number): boolean {
  let count = 0;
  for (const opening of ["{", "["]) {
    for (let i = raw.indexOf(opening); i >= 0; i = raw.indexOf(opening, i + 1))
      if (++count > max) return false;
  }
  return true;
}

/**
 * Walks a parsed JSON value with an explicit stack (so no depth can overflow it): "too_deep" when
 * objects and arrays nest deeper than `maxDepth` (the top level is 1), "nul" when `findNul` and a
 * string or key holds a NUL character, else undefined.
 */
export function inspectJson(
  root: unknown,
  maxDepth: number,
  findNul: boolean,
): "too_deep" | "nul" | undefined {
  const values: unknown[] = [root];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()! + 1;
    if (typeof value === "string") {
      if (findNul && value.includes("\0")) return "nul";
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth > maxDepth) return "too_deep";
    if (Array.isArray(value)) {
      for (const item of value) {
        values.push(item);
        depths.push(depth);
      }
      continue;
    }
    // JSON.parse makes plain objects: every enumerable key is an own one.
    for (const key in value) {
      if (findNul && key.includes("\0")) return "nul";
      values.push((value as Record<string, unknown>)[key]);
      depths.push(depth);
    }
  }
  return undefined;
}

/** Reads the request body as UTF-8, refusing (413) as soon as it passes `limit` bytes. */
export async function readRawBody(ctx: Context, limit: number): Promise<string> {
  return (await readRawBytes(ctx, limit)).toString("utf8");
}

/** Reads the request body's bytes as they came (a signature covers them), refusing (413) past `limit`. */
export function readRawBytes(ctx: Context, limit: number): Promise<Buffer> {
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
      resolve(Buffer.concat(chunks));
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
