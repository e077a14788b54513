/** ?tab=aanvragen&lead=<id> opens that request (the company's notification e-mail links here). */
export const LEAD_PARAM = "lead";

/** The panel's address of one request: the Lease Aanvragen tab with it open. */
export const leadHref = (id: string) => `/admin?tab=aanvragen&${LEAD_PARAM}=${encodeURIComponent(id)}`;

/**
 * The router state of a link inside the panel that opens another tab (Logboek to a lead): the
 * dashboard follows the URL's tab on Back and Forward, and on a navigation that carries this.
 */
export const OPENS_TAB = { opensTab: true } as const;

export const opensTab = (state: unknown): boolean =>
  typeof state === "object" && state !== null && (state as { opensTab?: unknown }).opensTab === true;

/** ?tab=aanvragen&opvolgen=vandaag: the list filtered to the follow-ups due. */
export const FOLLOW_UP_PARAM = "opvolgen";
