// Path helpers shared by the router, the pre-renderer and the client entry. The list of pages lives
// in libs/contracts, where visit tracking reads it too (it records only these pages by name); its
// "pages" entry holds no zod schema, so the public bundle stays free of zod.
import {
  ADMIN_PAGE_PATHS,
  PUBLIC_PAGE_PATHS,
  normalizePagePath,
  type PublicPagePath,
} from "@lease/contracts/pages";

export const PUBLIC_PATHS = PUBLIC_PAGE_PATHS;
export type PublicPath = PublicPagePath;

export const ADMIN_PATHS = ADMIN_PAGE_PATHS;

/** Key of the not-found screen, used where the pre-renderer writes 404.html. */
export const NOT_FOUND_KEY = "404";

/** "/over-ons/" and "/over-ons/index.html" are the same page as "/over-ons". */
export const normalizePath = normalizePagePath;

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
