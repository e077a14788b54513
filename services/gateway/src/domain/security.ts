import type { Context, Next } from "koa";
import { isWebhookPath } from "@lease/contracts";
import { HttpError, forbidden, isSameOrigin } from "@lease/platform";

// The pixel vendors the site may load after consent (issue: CSP without unsafe-inline scripts).
const PIXEL_SCRIPT_HOSTS = [
  "https://connect.facebook.net",
  "https://sc-static.net",
  "https://analytics.tiktok.com",
];
const PIXEL_CONNECT_HOSTS = [
  "https://www.facebook.com",
  "https://connect.facebook.net",
  "https://tr.snapchat.com",
  "https://sc-static.net",
  "https://analytics.tiktok.com",
];

const policy = (pixels: boolean) =>
  [
    "default-src 'self'",
    pixels ? `script-src 'self' ${PIXEL_SCRIPT_HOSTS.join(" ")}` : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // The admin shows a received e-mail's remote images only after "Afbeeldingen tonen" (the
    // sanitiser holds them back until then, web/src/admin/lib/email-html.ts): images only, over https.
    pixels
      ? `img-src 'self' data: https://www.facebook.com https://tr.snapchat.com https://analytics.tiktok.com`
      : "img-src 'self' data: https:",
    pixels ? `connect-src 'self' ${PIXEL_CONNECT_HOSTS.join(" ")}` : "connect-src 'self'",
    "font-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

export const CONTENT_SECURITY_POLICY = policy(true);
/** The admin pages and API load no pixel: their policy names none of the vendors' hosts. */
export const ADMIN_CONTENT_SECURITY_POLICY = policy(false);

const BASE_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ["Content-Security-Policy", CONTENT_SECURITY_POLICY],
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "DENY"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
];
const HTTPS_SECURITY_HEADERS = [
  ...BASE_SECURITY_HEADERS,
  ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as const,
];

/** The headers every answer of the gateway carries (HSTS when the site or request is https). */
export function securityHeaderList(https: boolean): ReadonlyArray<readonly [string, string]> {
  return https ? HTTPS_SECURITY_HEADERS : BASE_SECURITY_HEADERS;
}

export function securityHeaders(httpsOnly: boolean) {
  return async function setSecurityHeaders(ctx: Context, next: Next) {
    for (const [name, value] of securityHeaderList(httpsOnly || ctx.protocol === "https"))
      ctx.set(name, value);
    if (ctx.path.startsWith("/api/admin")) ctx.set("Cache-Control", "no-store");
    if (isAdminPath(ctx.path)) ctx.set("Content-Security-Policy", ADMIN_CONTENT_SECURITY_POLICY);
    await next();
  };
}

/** The admin panel's pages (and the compose window) and the admin API. */
const isAdminPath = (path: string) =>
  /^\/(admin|admin-login|email-compose)(\/|$)/.test(path) || path.startsWith("/api/admin/");

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const CROSS_SITE_MESSAGE = "Verzoeken van een andere website worden geweigerd";

const isJson = (contentType: string) => /^application\/json\s*(;|$)/i.test(contentType.trim());
const hasBody = (header: (name: string) => string) =>
  Number(header("content-length") || 0) > 0 || /chunked/i.test(header("transfer-encoding"));

/**
 * CSRF: a state-changing API request must come from our own pages: a same-origin Origin header
 * (or Sec-Fetch-Site: same-origin), and JSON, which a cross-site form cannot send without a CORS
 * preflight that we never grant. Admin routes (login included) also refuse a missing Origin and a
 * non-JSON request even without a body. Cross-site requests get 403 before they reach a service.
 */
export function csrfGuard(publicOrigin?: string) {
  return async function rejectCrossSite(ctx: Context, next: Next) {
    const scheme = ctx.protocol === "https" ? "https" : "http";
    const refusal = crossSiteRefusal(ctx.method, ctx.path, (name) => ctx.get(name), publicOrigin, scheme);
    if (refusal) throw refusal;
    return next();
  };
}

/** The CSRF rules above for one request: the error to answer with, or undefined when it may pass. */
export function crossSiteRefusal(
  method: string,
  path: string,
  header: (name: string) => string,
  publicOrigin?: string,
  scheme: "http" | "https" = "http",
): HttpError | undefined {
  // Routes are case-sensitive (one spelling each); the guard still reads the path in lower case, so
  // no other spelling of a route could ever pass it unchecked.
  const lower = path.toLowerCase();
  if (SAFE_METHODS.has(method) || !lower.startsWith("/api/")) return undefined;
  // A provider's server posts these (no Origin, a form): the route checks its secret or signature.
  if (isWebhookPath(path)) return undefined;
  const admin = lower.startsWith("/api/admin/");
  const fetchSite = header("sec-fetch-site");
  const origin = header("origin");
  if (fetchSite && fetchSite !== "same-origin") return forbidden(CROSS_SITE_MESSAGE);
  if (origin) {
    if (!isSameOrigin(origin, header("host"), publicOrigin, scheme)) return forbidden(CROSS_SITE_MESSAGE);
  } else if (fetchSite !== "same-origin" && admin) {
    return forbidden("Verzoek zonder herkomst geweigerd");
  }
  if ((admin || hasBody(header)) && !isJson(header("content-type")))
    return new HttpError(415, "unsupported_media_type", "Stuur de gegevens als application/json");
  return undefined;
}
