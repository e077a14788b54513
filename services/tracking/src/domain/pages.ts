import { OTHER_PAGE, isTrackedPagePath, normalizePagePath } from "@lease/contracts";

/**
 * Longest query string kept with a page view. Enough for a campaign's UTM parameters (lead
 * attribution reads them from the first page's query); a longer one is cut after its last whole
 * parameter within the bound.
 */
export const MAX_QUERY_LENGTH = 256;

export interface TrackedPage {
  /** The page as the live list shows it: a known path, or OTHER_PAGE. */
  path: string;
  /** The page as the stream carries it: `path` plus its bounded query string (known paths only). */
  withQuery: string;
}

/**
 * What a visit to `page` (path, optional query and fragment, as the browser sent it) is recorded
 * as: one of the site's pages by name, or OTHER_PAGE for any path the site does not have, so no
 * made-up path becomes a label in Redis, the top pages or the database.
 */
export function trackedPage(page: string): TrackedPage {
  const hash = page.indexOf("#");
  const bare = hash === -1 ? page : page.slice(0, hash);
  const mark = bare.indexOf("?");
  const path = normalizePagePath(mark === -1 ? bare : bare.slice(0, mark));
  if (!isTrackedPagePath(path)) return { path: OTHER_PAGE, withQuery: OTHER_PAGE };
  const query = boundedQuery(mark === -1 ? "" : bare.slice(mark + 1));
  return { path, withQuery: query ? `${path}?${query}` : path };
}

function boundedQuery(query: string): string {
  if (query.length <= MAX_QUERY_LENGTH) return query;
  const cut = query.lastIndexOf("&", MAX_QUERY_LENGTH);
  return cut > 0 ? query.slice(0, cut) : "";
}
