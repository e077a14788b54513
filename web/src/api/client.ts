// Same-origin JSON calls with the contract's error body (ApiError, libs/contracts http/errors.ts).
// Types only from the contracts: the public bundle carries no zod.
import type { ApiError as ApiErrorBody } from "@lease/contracts";

/**
 * A non-2xx answer. Its message is "status: body text" (the status text when the body is
 * empty); `body` is the contract's error body when the answer carried one, null otherwise.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
    text: string,
  ) {
    super(`${status}: ${text}`);
  }

  /** The machine code of the contract's body (e.g. "login_expired"), when there is one. */
  get code(): string | undefined {
    return this.body?.code;
  }

  /** The first message per field of a validation_failed answer, keyed by the field's path. */
  get fields(): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const field of this.body?.fields ?? []) fields[field.path] ??= field.message;
    return fields;
  }
}

/** The contract's error body (libs/contracts ApiError), checked by hand so no zod is bundled. */
export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (!value || typeof value !== "object") return false;
  const body = value as Record<string, unknown>;
  if (typeof body.code !== "string" || typeof body.message !== "string") return false;
  if (body.fields === undefined) return true;
  return (
    Array.isArray(body.fields) &&
    body.fields.every(
      (field: unknown) =>
        Boolean(field) &&
        typeof (field as Record<string, unknown>).path === "string" &&
        typeof (field as Record<string, unknown>).message === "string",
    )
  );
}

/** The ApiError for a failed response: its status, its body text and the contract body it holds. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  let body: ApiErrorBody | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isApiErrorBody(parsed)) body = parsed;
  } catch {
    // not JSON: no contract body
  }
  return new ApiError(response.status, body, text || response.statusText);
}

export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await apiExchange<T>(method, path, body)).data;
}

/** As apiRequest, with the response headers (counts some lists carry there). */
export async function apiExchange<T>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ data: T; headers: Headers }> {
  const response = await fetch(path, {
    method,
    credentials: "include",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await apiErrorOf(response);
  const text = await response.text();
  return { data: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** GET for react-query: the query key's segments joined with slashes form the URL. */
export function queryUrl(queryKey: readonly unknown[]): string {
  return queryKey.map(String).join("/");
}

/**
 * What a person sees for a failed call: the server's message when the body was the contract's error
 * body, the "status: body" text for other HTTP failures, and the fallback when there is nothing
 * useful (network errors, an empty message).
 */
export function userErrorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.body) return error.body.message.trim() || fallback;
  return error.message.trim() || fallback;
}

/** The per-field messages of a failed call (400 validation_failed), keyed by field path; {} otherwise. */
export function fieldErrors(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fields : {};
}

/** The HTTP status of a failed call, when it was an HTTP failure. */
export function errorStatus(error: unknown): number | undefined {
  return error instanceof ApiError ? error.status : undefined;
}
