import type { ConversionPlatform } from "@lease/contracts";
import type { PlatformRequest } from "./payloads";

export const PLATFORM_NAMES: Record<ConversionPlatform, string> = {
  meta: "Meta",
  tiktok: "TikTok",
  snapchat: "Snapchat",
  google: "Google",
};

/** What a platform made of an event: taken, to be tried again (429, 5xx, unreachable), or refused. */
export type SendResult = { ok: true } | { ok: false; retry: boolean; error: string };

/** The platform's own words from an error body: Meta's error.message, TikTok's message, Snapchat's reason. */
export function platformMessage(text: string): string {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const error = json.error as Record<string, unknown> | string | undefined;
    const found =
      (typeof error === "object" && error ? (error.error_user_msg ?? error.message) : error) ??
      json.message ??
      json.reason ??
      json.error_message;
    if (typeof found === "string" && found.trim()) return found.trim().slice(0, 500);
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 500);
}

/** What came back: the platform's status and body, or why it was not reached (Dutch). */
export type PlatformAnswer = { status: number; ok: boolean; text: string } | { unreachable: string };

/** Posts one request; never puts the request's address or headers in what it answers. */
export async function postToPlatform(
  platform: ConversionPlatform,
  request: PlatformRequest,
  timeoutMs: number,
): Promise<PlatformAnswer> {
  const name = PLATFORM_NAMES[platform];
  try {
    const res = await fetch(request.url, {
      method: "POST",
      headers: request.headers,
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, ok: res.ok, text: await res.text().catch(() => "") };
  } catch (err) {
    const timedOut = (err as Error).name === "TimeoutError";
    return {
      unreachable: timedOut
        ? `${name} antwoordde niet binnen ${Math.round(timeoutMs / 1000)} s`
        : `${name} is niet bereikbaar`,
    };
  }
}

/**
 * Posts one event. Never puts the request's address (Snapchat's carries the token) or headers in
 * an error: only the platform's answer, or that it could not be reached.
 */
export async function sendToPlatform(
  platform: ConversionPlatform,
  request: PlatformRequest,
  timeoutMs: number,
): Promise<SendResult> {
  return judge(platform, await postToPlatform(platform, request, timeoutMs));
}

/** Taken, to be tried again (429, 5xx, unreachable), or refused, from the platform's answer. */
export function judge(platform: ConversionPlatform, answer: PlatformAnswer): SendResult {
  const name = PLATFORM_NAMES[platform];
  if ("unreachable" in answer)
    return { ok: false, retry: true, error: `${answer.unreachable}; het wordt later opnieuw geprobeerd.` };
  const { status, text } = answer;
  if (answer.ok) {
    // TikTok answers 200 with its own code: 0 is taken, anything else a refusal.
    if (platform === "tiktok") {
      const code = tiktokCode(text);
      if (code !== 0)
        return {
          ok: false,
          retry: false,
          error: `${name} weigerde het event (code ${code}): ${platformMessage(text)}`,
        };
    }
    return { ok: true };
  }
  const message = platformMessage(text);
  if (status === 429 || status >= 500)
    return {
      ok: false,
      retry: true,
      error: `${name} antwoordde ${status}${message ? `: ${message}` : ""}; het wordt later opnieuw geprobeerd.`,
    };
  return {
    ok: false,
    retry: false,
    error: `${name} weigerde het event (${status})${message ? `: ${message}` : ""}`,
  };
}

function tiktokCode(text: string): number | string {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === "number" ? code : "onbekend";
  } catch {
    return "onbekend";
  }
}
