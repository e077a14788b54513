import { z } from "zod";
import { hasControlChars } from "@lease/contracts";
import type { TrackEvent } from "../repositories/page-views";

/**
 * One line of `npm run tracking:import`: a page view of history, e.g.
 * {"id":"umami-123","at":"2025-03-01T10:15:00Z","session":"a1b2","page":"/","referrer":"https://www.google.com/"}
 */
export const ImportLine = z.strictObject({
  id: z
    .string({ error: "id ontbreekt" })
    .min(1, { error: "id is leeg" })
    .max(200, { error: "id mag hoogstens 200 tekens zijn" }),
  at: z.iso.datetime({
    offset: true,
    error: "at moet een ISO-8601-tijdstip zijn, bijv. 2025-03-01T10:15:00Z",
  }),
  session: z
    .string({ error: "session ontbreekt" })
    .min(1, { error: "session is leeg" })
    .max(100, { error: "session mag hoogstens 100 tekens zijn" }),
  page: z
    .string({ error: "page ontbreekt" })
    .startsWith("/", { error: 'page moet met "/" beginnen' })
    .max(2048, { error: "page mag hoogstens 2048 tekens zijn" })
    .refine((page) => !hasControlChars(page), { error: "page bevat stuurtekens" }),
  referrer: z
    .string()
    .max(1024, { error: "referrer mag hoogstens 1024 tekens zijn" })
    .refine((referrer) => !hasControlChars(referrer), { error: "referrer bevat stuurtekens" })
    .optional(),
});
export type ImportLine = z.infer<typeof ImportLine>;

/** The pattern ImportLine's `at` is checked against (zod's own for an ISO instant with an offset). */
const AT = z.regexes.datetime({ offset: true });
const FIELDS = new Set(["id", "at", "session", "page", "referrer"]);

/**
 * The line as ImportLine would answer it when it is plainly valid, checked by hand (zod's checks
 * and the copy it makes were a tenth of the import's CPU); anything else (undefined) goes through
 * ImportLine, which says what is wrong. Accepts exactly what ImportLine accepts (import-line.test.ts).
 */
function plainLine(json: unknown): ImportLine | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  for (const key in json) if (!FIELDS.has(key)) return undefined;
  const { id, at, session, page, referrer } = json as Record<string, unknown>;
  if (typeof id !== "string" || id.length < 1 || id.length > 200) return undefined;
  if (typeof at !== "string" || !AT.test(at)) return undefined;
  if (typeof session !== "string" || session.length < 1 || session.length > 100) return undefined;
  if (typeof page !== "string" || !page.startsWith("/") || page.length > 2048 || hasControlChars(page))
    return undefined;
  if (
    referrer !== undefined &&
    (typeof referrer !== "string" || referrer.length > 1024 || hasControlChars(referrer))
  )
    return undefined;
  return { id, at, session, page, referrer };
}

/** Allowed clock difference for imported times that lie ahead of this machine's clock. */
const FUTURE_SLACK_MS = 5 * 60_000;

export type ParsedLine = { event: TrackEvent } | { error: string };

/** One NDJSON line to a page-view event, or the reason it is refused (in Dutch, for the operator). */
export function parseImportLine(text: string, now: number): ParsedLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: "geen geldige JSON" };
  }
  const quick = plainLine(json);
  if (quick) return toEvent(quick, now);
  const result = ImportLine.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    if (issue.code === "unrecognized_keys") return { error: `onbekend veld: ${issue.keys.join(", ")}` };
    if (issue.code === "invalid_type" && issue.path.length === 0)
      return { error: "verwacht een JSON-object" };
    return { error: issue.message };
  }
  return toEvent(result.data, now);
}

function toEvent(line: ImportLine, now: number): ParsedLine {
  const at = new Date(line.at);
  if (at.getTime() > now + FUTURE_SLACK_MS) return { error: `at (${line.at}) ligt in de toekomst` };
  return {
    event: {
      eventId: line.id,
      sessionId: line.session,
      isView: true,
      page: line.page,
      referrer: line.referrer || null,
      userAgent: null,
      country: null,
      city: null,
      at,
    },
  };
}
