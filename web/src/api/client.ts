// Same-origin JSON calls (SPEC §7) with the error convention of SPEC §8.

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
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new Error(`${response.status}: ${text || response.statusText}`);
  }
  const text = await response.text();
  return { data: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** GET for react-query: the query key's segments joined with slashes form the URL. */
export function queryUrl(queryKey: readonly unknown[]): string {
  return queryKey.map(String).join("/");
}

/**
 * What a person sees for a failed call: the server's ApiError message when the body carried one, the
 * error text for other HTTP failures, and the fallback when there is nothing useful (network errors).
 */
export function userErrorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const match = /^(\d{3}): ([\s\S]*)$/.exec(error.message);
  if (!match) return fallback;
  const bodyText = match[2]!.trim();
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === "object" && "message" in parsed && typeof parsed.message === "string") {
      return parsed.message.trim() || fallback;
    }
  } catch {
    // not JSON: fall through to the plain error message
  }
  return error.message.trim() || fallback;
}
