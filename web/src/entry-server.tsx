import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { PAGES, pageMeta } from "./routes";
import { canonicalUrl, NOT_FOUND_KEY, PUBLIC_PATHS } from "./lib/url";
import { PublicSite } from "./site/PublicSite";

export const PRERENDER_KEYS = [...PUBLIC_PATHS, NOT_FOUND_KEY] as const;
export type PrerenderKey = (typeof PRERENDER_KEYS)[number];

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** HTML of one public page, its head tags and the islands it holds, for scripts/build.mjs. */
export async function renderPage(
  key: PrerenderKey,
  siteUrl: string | undefined,
): Promise<{ html: string; head: string; islands: string[] }> {
  await PAGES[key].preload();
  const html = renderToString(
    <StrictMode>
      <PublicSite page={key} />
    </StrictMode>,
  );
  const islands = [...new Set([...html.matchAll(/<[a-z]+ data-island="([^"]+)"/g)].map((m) => m[1]!))];
  const meta = pageMeta(key);
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  const tags = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:locale" content="nl_NL" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
  ];
  if (key === NOT_FOUND_KEY) {
    tags.push(`<meta name="robots" content="noindex" />`);
  } else {
    const url = escapeHtml(canonicalUrl(siteUrl, key));
    tags.push(`<link rel="canonical" href="${url}" />`, `<meta property="og:url" content="${url}" />`);
  }
  return { html, head: tags.join("\n    "), islands };
}
