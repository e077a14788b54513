// Path helpers shared by the router, the pre-renderer and the client entry.

export const PUBLIC_PATHS = [
  "/",
  "/zakelijke-lease",
  "/financiele-lease",
  "/operationele-lease",
  "/fleet-management",
  "/over-ons",
  "/voorwaarden",
  "/privacy-beleid",
  "/cookie-beleid",
] as const;
export type PublicPath = (typeof PUBLIC_PATHS)[number];

export const ADMIN_PATHS = ["/admin-login", "/admin", "/email-compose"] as const;

/** Key of the not-found screen, used where the pre-renderer writes 404.html. */
export const NOT_FOUND_KEY = "404";

/** "/over-ons/" and "/over-ons/index.html" are the same page as "/over-ons". */
export function normalizePath(pathname: string): string {
  let path = pathname.replace(/\/index\.html$/, "/");
  if (path.length > 1) path = path.replace(/\/+$/, "");
  return path === "" ? "/" : path;
}

export function isPublicPath(pathname: string): pathname is PublicPath {
  return (PUBLIC_PATHS as readonly string[]).includes(normalizePath(pathname));
}

/**
 * Which pre-rendered document belongs to a path: the public path itself, "404" for unknown paths and
 * null for client-only routes (the admin), which must be rendered rather than hydrated.
 */
export function prerenderKeyFor(pathname: string): string | null {
  const path = normalizePath(pathname);
  if (isPublicPath(path)) return path;
  if ((ADMIN_PATHS as readonly string[]).includes(path)) return null;
  return NOT_FOUND_KEY;
}

/** The canonical address of a page; relative when the build has no SITE_URL. */
export function canonicalUrl(siteUrl: string | undefined, pathname: string): string {
  const path = normalizePath(pathname);
  if (!siteUrl) return path;
  return `${siteUrl.replace(/\/+$/, "")}${path === "/" ? "/" : path}`;
}
