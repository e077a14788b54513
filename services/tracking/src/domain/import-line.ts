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
  const result = ImportLine.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    if (issue.code === "unrecognized_keys") return { error: `onbekend veld: ${issue.keys.join(", ")}` };
    if (issue.code === "invalid_type" && issue.path.length === 0)
      return { error: "verwacht een JSON-object" };
    return { error: issue.message };
  }
  const line = result.data;
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
