import type { z } from "zod";
import { INTERNAL_TOKEN_HEADER } from "./session";
import { injectTraceHeaders } from "./tracing";

export class InternalCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "InternalCallError";
  }
}

/** A small typed client for /internal/* routes of another service (keep-alive via fetch's pool). */
export function createInternalClient(baseUrl: string, token: string, timeoutMs = 3000) {
  return async function call<S extends z.ZodType>(
    path: string,
    schema: S,
    init: { method?: string; body?: unknown; requestId?: string } = {},
  ): Promise<z.infer<S>> {
    const headers: Record<string, string> = { [INTERNAL_TOKEN_HEADER]: token, accept: "application/json" };
    if (init.body !== undefined) headers["content-type"] = "application/json";
    if (init.requestId) headers["x-request-id"] = init.requestId;
    injectTraceHeaders(headers);
    let res: Response;
    try {
      res = await fetch(new URL(path, baseUrl), {
        method: init.method ?? "GET",
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new InternalCallError(`${baseUrl}${path} unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok)
      throw new InternalCallError(`${path} answered ${res.status}: ${text.slice(0, 200)}`, res.status);
    return schema.parse(text ? JSON.parse(text) : undefined);
  };
}
