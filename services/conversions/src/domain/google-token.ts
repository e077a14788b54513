import type { GoogleCredentials } from "@lease/contracts";
import { platformMessage, type SendResult } from "./send";
import { sha256 } from "./payloads";
import { tokenRequestBody } from "./google";

export type TokenResult = { ok: true; token: string } | Extract<SendResult, { ok: false }>;

/** Tokens kept per set of credentials: a handful at most (one is in use; a change adds one). */
const CACHE_MAX = 8;
/** A token is renewed this long before Google says it expires. */
const EARLY_MS = 60_000;

/**
 * Google's OAuth 2.0 token endpoint (GOOGLE_OAUTH_TOKEN_URL): an access token for the Data Manager
 * API's scope from a service account's signed JWT or an OAuth client's refresh token, kept in
 * memory until shortly before it expires. A refusal (invalid_grant, a deleted key) fails the event
 * with Google's own words; an unreachable endpoint, 429 or 5xx leaves it waiting for a retry.
 */
export function googleTokens(opts: { tokenUrl: string; timeoutMs: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { token: string; expiresAt: number }>();
  // Events sent at once while no token is kept share one request for it, instead of one each.
  const asking = new Map<string, Promise<TokenResult>>();
  const keyOf = (credentials: GoogleCredentials) => sha256(JSON.stringify(credentials));
  return {
    async token(credentials: GoogleCredentials): Promise<TokenResult> {
      const key = keyOf(credentials);
      const hit = cache.get(key);
      if (hit && hit.expiresAt - EARLY_MS > now()) return { ok: true, token: hit.token };
      const pending = asking.get(key);
      if (pending) return pending;
      const request = fetchToken(key, credentials).finally(() => asking.delete(key));
      asking.set(key, request);
      return request;
    },
    /** The API refused the token (401): the next event asks for a new one. */
    forget(credentials: GoogleCredentials) {
      cache.delete(keyOf(credentials));
    },
  };

  async function fetchToken(key: string, credentials: GoogleCredentials): Promise<TokenResult> {
    let res: Response;
    try {
      res = await fetch(opts.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: tokenRequestBody(credentials, opts.tokenUrl, Math.floor(now() / 1000)).toString(),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch {
      return {
        ok: false,
        retry: true,
        error: "De inlogdienst van Google is niet bereikbaar; het wordt later opnieuw geprobeerd.",
      };
    }
    const text = await res.text().catch(() => "");
    if (!res.ok) {
      const message = oauthMessage(text);
      if (res.status === 429 || res.status >= 500)
        return {
          ok: false,
          retry: true,
          error: `De inlogdienst van Google antwoordde ${res.status}${message ? `: ${message}` : ""}; het wordt later opnieuw geprobeerd.`,
        };
      return {
        ok: false,
        retry: false,
        error: `Google weigerde de inloggegevens (${res.status})${message ? `: ${message}` : ""} — controleer ze bij Conversies.`,
      };
    }
    let json: { access_token?: unknown; expires_in?: unknown };
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      json = {};
    }
    if (typeof json.access_token !== "string" || !json.access_token)
      return {
        ok: false,
        retry: true,
        error: "Google gaf geen toegangstoken; het wordt later opnieuw geprobeerd.",
      };
    const seconds = typeof json.expires_in === "number" && json.expires_in > 0 ? json.expires_in : 3600;
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, { token: json.access_token, expiresAt: now() + seconds * 1000 });
    return { ok: true, token: json.access_token };
  }
}
export type GoogleTokens = ReturnType<typeof googleTokens>;

/** OAuth's error answer: error_description, else the error code ("invalid_grant"). */
function oauthMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof json.error_description === "string" && json.error_description.trim())
      return json.error_description.trim().slice(0, 500);
  } catch {
    // not JSON
  }
  return platformMessage(text);
}
